package dev.taskgov.watcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * deploy/k8s as a cluster would take it: every field known to fabric8's Kubernetes model (which is
 * generated from the Kubernetes OpenAPI schemas), the kustomization listing every manifest, the
 * recommended labels, the restricted Pod Security Standard, resources, disruption budgets for the
 * deciders, and the monitoring objects of the Prometheus Operator pointing at what exists.
 */
class ManifestsTest {

    static final Path DIR = root().resolve("deploy/k8s");
    static final List<String> RECOMMENDED_LABELS = List.of("app.kubernetes.io/name", "app.kubernetes.io/part-of",
            "app.kubernetes.io/instance", "app.kubernetes.io/component", "app.kubernetes.io/version",
            "app.kubernetes.io/managed-by");
    static final List<HasMetadata> objects = new ArrayList<>();

    @BeforeAll
    static void load() throws IOException {
        KubernetesSerialization serialization = new KubernetesSerialization();
        for (String file : kustomizationResources()) {
            try (InputStream in = Files.newInputStream(DIR.resolve(file))) {
                Object parsed = serialization.unmarshal(in);
                if (parsed instanceof List<?> list) list.forEach(o -> objects.add((HasMetadata) o));
                else objects.add((HasMetadata) parsed);
            }
        }
    }

    @Test
    void theKustomizationAppliesEveryManifestOfTheFolder() throws IOException {
        try (Stream<Path> files = Files.list(DIR)) {
            List<String> manifests = files.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(".yaml") && !n.equals("kustomization.yaml")).sorted().toList();
            assertThat(kustomizationResources()).containsExactlyElementsOf(manifests);
        }
    }

    @Test
    void everyFieldOfEveryTypedObjectIsOneTheKubernetesSchemaKnows() {
        List<String> unknown = new ArrayList<>();
        for (HasMetadata o : objects) {
            if (o instanceof GenericKubernetesResource) continue;
            collectUnknownFields(o, o.getKind() + "/" + o.getMetadata().getName(), unknown);
        }
        assertThat(objects).filteredOn(o -> !(o instanceof GenericKubernetesResource))
                .extracting(HasMetadata::getKind).contains("Deployment", "Service", "PodDisruptionBudget");
        assertThat(unknown).as("fields no Kubernetes type has").isEmpty();
    }

    @Test
    void workloadsServicesBudgetsAndMonitoringCarryTheRecommendedLabels() {
        assertThat(objects).filteredOn(o -> Set.of("Deployment", "Service", "PodDisruptionBudget", "ServiceMonitor", "PrometheusRule")
                        .contains(o.getKind()))
                .hasSizeGreaterThanOrEqualTo(15)
                .allSatisfy(o -> assertThat(o.getMetadata().getLabels()).as(o.getKind() + " " + o.getMetadata().getName())
                        .containsKeys(RECOMMENDED_LABELS.toArray(String[]::new))
                        .containsEntry("app.kubernetes.io/part-of", "taskgov"));
        for (Deployment d : all(Deployment.class)) {
            assertThat(d.getSpec().getTemplate().getMetadata().getLabels()).as(d.getMetadata().getName())
                    .containsAllEntriesOf(d.getMetadata().getLabels());
        }
    }

    @Test
    void everyPodMeetsTheRestrictedPodSecurityStandardWithAWritableTmpOnly() {
        for (Deployment d : all(Deployment.class)) {
            PodSpec pod = d.getSpec().getTemplate().getSpec();
            String name = d.getMetadata().getName();
            assertThat(pod.getSecurityContext().getRunAsNonRoot()).as(name).isTrue();
            assertThat(pod.getSecurityContext().getRunAsUser()).as(name).isPositive();
            assertThat(pod.getSecurityContext().getSeccompProfile().getType()).as(name).isEqualTo("RuntimeDefault");
            assertThat(pod.getHostNetwork()).as(name).isNotEqualTo(Boolean.TRUE);
            assertThat(pod.getVolumes()).as(name).anySatisfy(v -> {
                assertThat(v.getName()).isEqualTo("tmp");
                assertThat(v.getEmptyDir()).isNotNull();
            });
            for (Container c : pod.getContainers()) {
                var security = c.getSecurityContext();
                assertThat(security.getAllowPrivilegeEscalation()).as(name).isFalse();
                assertThat(security.getReadOnlyRootFilesystem()).as(name).isTrue();
                assertThat(security.getPrivileged()).as(name).isNotEqualTo(Boolean.TRUE);
                assertThat(security.getCapabilities().getDrop()).as(name).containsExactly("ALL");
                assertThat(security.getCapabilities().getAdd()).as(name).isNullOrEmpty();
                assertThat(c.getVolumeMounts()).as(name).anySatisfy(m -> {
                    assertThat(m.getName()).isEqualTo("tmp");
                    assertThat(m.getMountPath()).isEqualTo("/tmp");
                });
                assertThat(c.getResources().getRequests()).as(name).containsKeys("cpu", "memory");
                assertThat(c.getResources().getLimits()).as(name).containsKeys("cpu", "memory");
            }
        }
    }

    @Test
    void theDecidersKeepOnePodThroughVoluntaryDisruptions() {
        Map<String, PodDisruptionBudget> budgets = all(PodDisruptionBudget.class).stream()
                .collect(Collectors.toMap(b -> b.getMetadata().getName(), b -> b));
        assertThat(budgets).containsKeys("admission-service", "preemption-service");
        for (PodDisruptionBudget budget : budgets.values()) {
            Deployment target = deployment(budget.getMetadata().getName());
            assertThat(target.getSpec().getTemplate().getMetadata().getLabels())
                    .containsAllEntriesOf(budget.getSpec().getSelector().getMatchLabels());
            // A budget of one pod out of one would block every drain: there is a standby to keep.
            assertThat(target.getSpec().getReplicas()).as(budget.getMetadata().getName())
                    .isGreaterThan(budget.getSpec().getMinAvailable().getIntVal());
        }
    }

    @Test
    void theServiceMonitorScrapesEveryServicesMetricsAndTheRulesAreDocumentedAlerts() throws IOException {
        GenericKubernetesResource monitor = generic("ServiceMonitor");
        assertThat(monitor.getApiVersion()).isEqualTo("monitoring.coreos.com/v1");
        Map<String, Object> spec = monitor.get("spec");
        @SuppressWarnings("unchecked")
        Map<String, String> selector = (Map<String, String>) monitor.<Map<String, Object>>get("spec", "selector").get("matchLabels");
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> endpoints = (List<Map<String, Object>>) spec.get("endpoints");
        assertThat(endpoints).singleElement().satisfies(e -> {
            assertThat(e).containsEntry("path", "/q/metrics");
            for (Service service : all(Service.class)) {
                assertThat(service.getMetadata().getLabels()).containsAllEntriesOf(selector);
                assertThat(service.getSpec().getPorts()).extracting(ServicePort::getName).contains((String) e.get("port"));
            }
        });

        GenericKubernetesResource rule = generic("PrometheusRule");
        String metricsDoc = Files.readString(root().resolve("docs/metrics.md"));
        List<Map<String, Object>> groups = rule.<List<Map<String, Object>>>get("spec", "groups");
        @SuppressWarnings("unchecked")
        // The alerts; the recording rules that publish Kueue's metric names (group kueue-compatible) are checked
        // against deploy/prometheus by DeployManifestsTest.
        List<Map<String, Object>> rules = groups.stream()
                .flatMap(g -> ((List<Map<String, Object>>) g.get("rules")).stream())
                .filter(r -> !r.containsKey("record")).toList();
        assertThat(rules).hasSizeGreaterThanOrEqualTo(3).allSatisfy(r -> {
            assertThat(r).containsKeys("alert", "expr", "labels", "annotations");
            // Every metric an alert reads is one docs/metrics.md describes.
            java.util.regex.Matcher metric = java.util.regex.Pattern.compile("taskgov_[a-z_]+").matcher((String) r.get("expr"));
            assertThat(metric.find()).isTrue();
            do {
                assertThat(metricsDoc).as((String) r.get("alert")).contains(metric.group());
            } while (metric.find());
        });
        assertThat(rules).extracting(r -> r.get("expr"))
                .contains("max by (instance_type, resource) (taskgov_quota_overcommit) > 0");
    }

    /** Adds the path of every value that landed in a model class's additionalProperties: a field no schema has. */
    static void collectUnknownFields(Object value, String path, List<String> unknown) {
        if (value == null) return;
        if (value instanceof Collection<?> items) {
            int i = 0;
            for (Object item : items) collectUnknownFields(item, path + "[" + i++ + "]", unknown);
            return;
        }
        if (value instanceof Map<?, ?> map) {
            map.forEach((k, v) -> collectUnknownFields(v, path + "." + k, unknown));
            return;
        }
        if (!value.getClass().getPackageName().startsWith("io.fabric8.kubernetes.api.model")) return;
        for (Method getter : value.getClass().getMethods()) {
            if (getter.getParameterCount() != 0 || !getter.getName().startsWith("get") || getter.getDeclaringClass() == Object.class) continue;
            Object child;
            try {
                child = getter.invoke(value);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
            if (getter.getName().equals("getAdditionalProperties")) {
                if (child instanceof Map<?, ?> extra && !extra.isEmpty()) unknown.add(path + ": " + extra.keySet());
            } else {
                collectUnknownFields(child, path + "." + getter.getName().substring(3), unknown);
            }
        }
    }

    static List<String> kustomizationResources() {
        return kustomizationResources(DIR);
    }

    static List<String> kustomizationResources(Path dir) {
        try {
            Map<?, ?> kustomization = new KubernetesSerialization().unmarshal(Files.readString(dir.resolve("kustomization.yaml")), Map.class);
            assertThat(kustomization.get("kind")).isEqualTo("Kustomization");
            return ((List<?>) kustomization.get("resources")).stream().map(String::valueOf).toList();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * deploy/k8s/teams: each team's group may create jobs only in its own namespace
     * {@code hyperpod-ns-<team>}, and may not update or patch them (unsuspending is taskgov's decision); nothing
     * cluster-wide, nothing for another namespace.
     */
    @Test
    void eachTeamsGroupCreatesJobsOnlyInItsOwnNamespaceAndCannotUnsuspendThem() throws IOException {
        Path teams = DIR.resolve("teams");
        try (Stream<Path> files = Files.list(teams)) {
            assertThat(kustomizationResources(teams)).containsExactlyElementsOf(files.map(f -> f.getFileName().toString())
                    .filter(n -> n.endsWith(".yaml") && !n.equals("kustomization.yaml")).sorted().toList());
        }
        List<HasMetadata> teamObjects = new ArrayList<>();
        KubernetesSerialization serialization = new KubernetesSerialization();
        for (String file : kustomizationResources(teams)) {
            try (InputStream in = Files.newInputStream(teams.resolve(file))) {
                List<HasMetadata> parsed = new ArrayList<>();
                Object o = serialization.unmarshal(in);
                if (o instanceof List<?> list) list.forEach(x -> parsed.add((HasMetadata) x));
                else parsed.add((HasMetadata) o);
                String team = file.substring(0, file.length() - ".yaml".length());
                String namespace = "hyperpod-ns-" + team;
                assertThat(parsed).extracting(HasMetadata::getKind).containsExactlyInAnyOrder("Namespace", "Role", "RoleBinding");
                for (HasMetadata object : parsed) {
                    if (!object.getKind().equals("Namespace")) {
                        assertThat(object.getMetadata().getNamespace()).as(file + " " + object.getKind()).isEqualTo(namespace);
                    }
                }
                io.fabric8.kubernetes.api.model.rbac.RoleBinding binding = parsed.stream()
                        .filter(io.fabric8.kubernetes.api.model.rbac.RoleBinding.class::isInstance)
                        .map(io.fabric8.kubernetes.api.model.rbac.RoleBinding.class::cast).findFirst().orElseThrow();
                assertThat(binding.getSubjects()).singleElement().satisfies(subject -> {
                    assertThat(subject.getKind()).isEqualTo("Group");
                    assertThat(subject.getName()).isEqualTo("taskgov:team:" + team);
                });
                assertThat(binding.getRoleRef().getKind()).isEqualTo("Role");
                io.fabric8.kubernetes.api.model.rbac.Role role = parsed.stream()
                        .filter(io.fabric8.kubernetes.api.model.rbac.Role.class::isInstance)
                        .map(io.fabric8.kubernetes.api.model.rbac.Role.class::cast).findFirst().orElseThrow();
                assertThat(role.getMetadata().getName()).isEqualTo(binding.getRoleRef().getName());
                Set<String> creatable = new java.util.HashSet<>();
                for (io.fabric8.kubernetes.api.model.rbac.PolicyRule rule : role.getRules()) {
                    assertThat(rule.getVerbs()).as(file + " " + rule.getResources()).doesNotContain("*", "update", "patch", "escalate", "bind");
                    assertThat(rule.getResources()).doesNotContain("*", "roles", "rolebindings", "namespaces");
                    if (rule.getVerbs().contains("create")) creatable.addAll(rule.getResources());
                }
                assertThat(creatable).as("what " + team + " may create").containsExactlyInAnyOrder("jobs", "pytorchjobs", "hyperpodpytorchjobs");
                teamObjects.addAll(parsed);
            }
        }
        assertThat(teamObjects).extracting(HasMetadata::getKind).doesNotContain("ClusterRole", "ClusterRoleBinding");
        List<String> unknown = new ArrayList<>();
        for (HasMetadata o : teamObjects) collectUnknownFields(o, o.getKind() + "/" + o.getMetadata().getName(), unknown);
        assertThat(unknown).as("fields no Kubernetes type has").isEmpty();
    }

    static <T> List<T> all(Class<T> type) {
        return objects.stream().filter(type::isInstance).map(type::cast).toList();
    }

    static Deployment deployment(String name) {
        return all(Deployment.class).stream().filter(d -> d.getMetadata().getName().equals(name)).findFirst().orElseThrow();
    }

    static GenericKubernetesResource generic(String kind) {
        return all(GenericKubernetesResource.class).stream().filter(o -> o.getKind().equals(kind)).findFirst().orElseThrow();
    }

    static Path root() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isDirectory(p.resolve("deploy/k8s"))) return p;
        }
        throw new IllegalStateException("deploy/k8s not found above " + Path.of("").toAbsolutePath());
    }
}
