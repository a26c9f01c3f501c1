package dev.taskgov.watcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

/** deploy/k8s parses as Kubernetes objects, and they fit together with the least rights the watcher needs. */
class DeployManifestsTest {

    static List<HasMetadata> objects = new ArrayList<>();

    @BeforeAll
    static void load() throws IOException {
        Path dir = root().resolve("deploy/k8s");
        KubernetesSerialization serialization = new KubernetesSerialization();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".yaml") && !p.endsWith("kustomization.yaml")).sorted().toList()) {
                try (InputStream in = Files.newInputStream(f)) {
                    Object parsed = serialization.unmarshal(in);
                    if (parsed instanceof List<?> list) list.forEach(o -> objects.add((HasMetadata) o));
                    else objects.add((HasMetadata) parsed);
                }
            }
        }
    }

    private static Path root() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isDirectory(p.resolve("deploy/k8s"))) return p;
        }
        throw new IllegalStateException("deploy/k8s not found above " + Path.of("").toAbsolutePath());
    }

    private static <T> List<T> all(Class<T> type) {
        return objects.stream().filter(type::isInstance).map(type::cast).toList();
    }

    @Test
    void everyServiceAndTheWatcherIsDeployedInTaskgovSystem() {
        assertThat(all(Deployment.class)).extracting(d -> d.getMetadata().getName()).containsExactlyInAnyOrder(
                "quota-service", "topology-service", "admission-service", "preemption-service", "job-watcher");
        assertThat(objects).filteredOn(o -> !(o instanceof ClusterRole) && !(o instanceof ClusterRoleBinding)
                        && !o.getKind().equals("Namespace"))
                .allSatisfy(o -> assertThat(o.getMetadata().getNamespace()).as(o.getKind() + " " + o.getMetadata().getName())
                        .isEqualTo("taskgov-system"));
    }

    @Test
    void deploymentsReferOnlyToServiceAccountsAndConfigMapsThatExist() {
        Set<String> accounts = all(ServiceAccount.class).stream().map(s -> s.getMetadata().getName()).collect(Collectors.toSet());
        Set<String> configMaps = all(ConfigMap.class).stream().map(c -> c.getMetadata().getName()).collect(Collectors.toSet());
        assertThat(configMaps).contains("taskgov-config");
        assertThat(all(ConfigMap.class).get(0).getData()).containsKey("TASKGOV_KAFKA_BOOTSTRAP");
        for (Deployment d : all(Deployment.class)) {
            var pod = d.getSpec().getTemplate().getSpec();
            assertThat(accounts).contains(pod.getServiceAccountName());
            pod.getContainers().forEach(c -> c.getEnvFrom().forEach(e -> assertThat(configMaps).contains(e.getConfigMapRef().getName())));
            assertThat(d.getSpec().getSelector().getMatchLabels()).isEqualTo(d.getSpec().getTemplate().getMetadata().getLabels()
                    .entrySet().stream().filter(e -> e.getKey().equals("app.kubernetes.io/name"))
                    .collect(Collectors.toMap(java.util.Map.Entry::getKey, java.util.Map.Entry::getValue)));
        }
    }

    @Test
    void theWatchersRoleHasExactlyTheRightsItUses() {
        ClusterRole role = all(ClusterRole.class).stream().filter(r -> r.getMetadata().getName().equals("taskgov-job-watcher"))
                .findFirst().orElseThrow();
        assertThat(role.getRules()).extracting(PolicyRule::getApiGroups, PolicyRule::getResources, PolicyRule::getVerbs)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(List.of("batch"), List.of("jobs"),
                                List.of("get", "list", "watch", "patch", "update")),
                        org.assertj.core.groups.Tuple.tuple(List.of("kubeflow.org"), List.of("pytorchjobs", "mpijobs", "tfjobs"),
                                List.of("get", "list", "watch", "patch", "update")),
                        org.assertj.core.groups.Tuple.tuple(List.of("sagemaker.amazonaws.com"), List.of("hyperpodpytorchjobs"),
                                List.of("get", "list", "watch", "patch", "update")),
                        org.assertj.core.groups.Tuple.tuple(List.of(""), List.of("pods"), List.of("get", "list", "watch", "patch")),
                        org.assertj.core.groups.Tuple.tuple(List.of(""), List.of("events"), List.of("create", "patch")));
        assertThat(role.getRules()).noneMatch(r -> r.getVerbs().contains("*") || r.getVerbs().contains("delete"));
        ClusterRoleBinding binding = all(ClusterRoleBinding.class).stream()
                .filter(b -> b.getRoleRef().getName().equals("taskgov-job-watcher")).findFirst().orElseThrow();
        assertThat(binding.getSubjects()).singleElement().satisfies(s -> {
            assertThat(s.getName()).isEqualTo("taskgov-job-watcher");
            assertThat(s.getNamespace()).isEqualTo("taskgov-system");
        });
        Deployment watcher = all(Deployment.class).stream().filter(d -> d.getMetadata().getName().equals("job-watcher"))
                .findFirst().orElseThrow();
        assertThat(watcher.getSpec().getTemplate().getSpec().getServiceAccountName()).isEqualTo("taskgov-job-watcher");
    }

    @Test
    void theWatcherMayOnlyCreateAndRenewItsOwnLeaseInItsNamespace() {
        Role role = all(Role.class).stream().filter(r -> r.getMetadata().getName().equals("taskgov-job-watcher-leader-election"))
                .findFirst().orElseThrow();
        assertThat(role.getMetadata().getNamespace()).isEqualTo("taskgov-system");
        assertThat(role.getRules()).extracting(PolicyRule::getApiGroups, PolicyRule::getResources, PolicyRule::getResourceNames,
                PolicyRule::getVerbs).containsExactly(
                org.assertj.core.groups.Tuple.tuple(List.of("coordination.k8s.io"), List.of("leases"), List.of(), List.of("create")),
                org.assertj.core.groups.Tuple.tuple(List.of("coordination.k8s.io"), List.of("leases"), List.of("taskgov-job-watcher"),
                        List.of("get", "patch")));
        RoleBinding binding = all(RoleBinding.class).stream()
                .filter(b -> b.getRoleRef().getName().equals("taskgov-job-watcher-leader-election")).findFirst().orElseThrow();
        assertThat(binding.getSubjects()).singleElement().satisfies(s -> assertThat(s.getName()).isEqualTo("taskgov-job-watcher"));

        Deployment watcher = all(Deployment.class).stream().filter(d -> d.getMetadata().getName().equals("job-watcher"))
                .findFirst().orElseThrow();
        assertThat(watcher.getSpec().getReplicas()).isEqualTo(2);
        assertThat(watcher.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv())
                .anySatisfy(e -> {
                    assertThat(e.getName()).isEqualTo("TASKGOV_WATCHER_LEADER_ELECTION_ENABLED");
                    assertThat(e.getValue()).isEqualTo("true");
                });
    }

    @Test
    void theOptionalWebhookCallsTheWatchersEndpointOnJobCreationsOnly() throws IOException {
        List<HasMetadata> webhook = new ArrayList<>();
        KubernetesSerialization serialization = new KubernetesSerialization();
        try (InputStream in = Files.newInputStream(root().resolve("deploy/k8s/webhook/mutating-webhook.yaml"))) {
            ((List<?>) serialization.unmarshal(in)).forEach(o -> webhook.add((HasMetadata) o));
        }
        MutatingWebhookConfiguration config = webhook.stream().filter(MutatingWebhookConfiguration.class::isInstance)
                .map(MutatingWebhookConfiguration.class::cast).findFirst().orElseThrow();
        assertThat(config.getWebhooks()).singleElement().satisfies(w -> {
            assertThat(w.getClientConfig().getService().getPath()).isEqualTo("/admission/suspend-jobs");
            assertThat(w.getClientConfig().getService().getName()).isEqualTo("job-watcher-webhook");
            assertThat(w.getFailurePolicy()).isEqualTo("Ignore");
            assertThat(w.getSideEffects()).isEqualTo("None");
            assertThat(w.getRules()).allSatisfy(r -> assertThat(r.getOperations()).containsExactly("CREATE"));
            assertThat(w.getRules()).flatExtracting(r -> r.getResources())
                    .containsExactlyInAnyOrder("jobs", "pytorchjobs", "mpijobs", "tfjobs", "hyperpodpytorchjobs");
        });
        io.fabric8.kubernetes.api.model.Service service = webhook.stream().filter(io.fabric8.kubernetes.api.model.Service.class::isInstance)
                .map(io.fabric8.kubernetes.api.model.Service.class::cast).findFirst().orElseThrow();
        assertThat(service.getSpec().getPorts()).singleElement().satisfies(p -> assertThat(p.getTargetPort().getIntVal()).isEqualTo(8443));
        assertThat(Files.readString(root().resolve("deploy/k8s/webhook/job-watcher-tls-patch.yaml")))
                .contains("QUARKUS_HTTP_SSL_PORT", "\"8443\"", "job-watcher-webhook-tls");
    }

    @Test
    void theHyperPodPyTorchJobDefinitionNamesWhatTheWatcherWatches() throws IOException {
        io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition crd;
        try (InputStream in = Files.newInputStream(root().resolve("deploy/k8s/crds/hyperpodpytorchjobs.yaml"))) {
            crd = (io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition) new KubernetesSerialization().unmarshal(in);
        }
        var context = JobKind.HYPERPOD_PYTORCH_JOB.context();
        assertThat(crd.getSpec().getGroup()).isEqualTo(context.getGroup());
        assertThat(crd.getSpec().getNames().getKind()).isEqualTo(context.getKind());
        assertThat(crd.getSpec().getNames().getPlural()).isEqualTo(context.getPlural());
        assertThat(crd.getSpec().getVersions()).singleElement().satisfies(v -> {
            assertThat(v.getName()).isEqualTo(context.getVersion());
            var spec = v.getSchema().getOpenAPIV3Schema().getProperties().get("spec").getProperties();
            assertThat(spec.get(JobKind.HYPERPOD_PYTORCH_JOB.replicaSpecsField()).getType()).isEqualTo("array");
            assertThat(spec.get("runPolicy").getProperties().get("suspend").getType()).isEqualTo("boolean");
        });
    }

    @Test
    void theTopologyLabelerMayOnlyReadAndLabelNodes() {
        ClusterRole role = all(ClusterRole.class).stream()
                .filter(r -> r.getMetadata().getName().equals("taskgov-topology-labeler")).findFirst().orElseThrow();
        assertThat(role.getRules()).singleElement().satisfies(r -> {
            assertThat(r.getResources()).containsExactly("nodes");
            assertThat(r.getVerbs()).containsExactly("get", "list", "watch", "patch");
        });
    }
    /**
     * The Prometheus Operator gets the Kueue-name recording rules from the same source as the plain
     * Prometheus configurations: deploy/prometheus/kueue-recording-rules.yml. The PrometheusRule holds a copy of
     * its groups (a CR cannot include a file); this keeps the copy equal to the file.
     */
    @Test
    @SuppressWarnings("unchecked")
    void thePrometheusRuleCarriesTheKueueRecordingRulesFileUnchanged() throws IOException {
        Map<String, Object> file;
        try (InputStream in = Files.newInputStream(root().resolve("deploy/prometheus/kueue-recording-rules.yml"))) {
            file = new KubernetesSerialization().unmarshal(in, Map.class);
        }
        List<Object> fileGroups = (List<Object>) file.get("groups");
        GenericKubernetesResource rule = objects.stream().filter(GenericKubernetesResource.class::isInstance)
                .map(GenericKubernetesResource.class::cast).filter(o -> o.getKind().equals("PrometheusRule")).findFirst().orElseThrow();
        List<Object> ruleGroups = (List<Object>) ((Map<String, Object>) rule.getAdditionalProperties().get("spec")).get("groups");
        assertThat(fileGroups).isNotEmpty();
        assertThat(ruleGroups.subList(ruleGroups.size() - fileGroups.size(), ruleGroups.size()))
                .as("deploy/k8s/50-monitoring.yaml's PrometheusRule must end with the groups of "
                        + "deploy/prometheus/kueue-recording-rules.yml, unchanged (copy them over, indented under spec.groups)")
                .isEqualTo(fileGroups);
    }
}
