package dev.taskgov.core.events;

import dev.taskgov.core.model.InstanceType;
import dev.taskgov.core.model.RejectReason;
import dev.taskgov.core.model.SchedulerConfig;
import dev.taskgov.core.model.ValidationException;
import dev.taskgov.core.model.Violation;
import dev.taskgov.core.model.Workload;
import dev.taskgov.core.model.WorkloadIds;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.core.topology.Node;
import dev.taskgov.core.topology.PodSetValidation;
import dev.taskgov.core.topology.TopologyLevels;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/** Turns a {@link WorkloadSubmitted} into a {@link Workload}, or says which fields break which rule. */
public final class WorkloadValidation {

    private WorkloadValidation() {
    }

    /** The outcome of validating a submission. */
    public sealed interface Result {
    }

    /** The submission is good. */
    public record Valid(Workload workload) implements Result {
    }

    /** The submission is refused: the first reason, and every broken rule with its field. */
    public record Invalid(RejectReason reason, List<Violation> violations) implements Result {
        public String message() {
            return String.join("; ", violations.stream().map(Violation::toString).toList());
        }
    }

    /**
     * What a submission is checked against.
     *
     * @param instanceTypes known instance types
     * @param teamExists    whether a team is known: it has a compute quota (or had one: its work waits for it)
     * @param config        priority classes
     * @param nodes         the cluster's nodes (a pod must fit one node of its type; with no
     *                      node of the type yet, it must fit the instance type's capacity)
     */
    public record Context(Map<String, InstanceType> instanceTypes, Predicate<String> teamExists, SchedulerConfig config,
                          Collection<Node> nodes) {
    }

    /**
     * Rules that need nothing but the submission itself: the id follows {@link WorkloadIds}, the namespace is present, pod set names unique, count
     * >= 1, requests not negative (partitions whole), known topology levels, not both required and preferred, node
     * selector labels and values not blank, the max-retry annotation a whole number >= 0, the
     * expected-runtime annotation an ISO-8601 duration greater than zero.
     */
    public static List<Violation> checkFields(WorkloadSubmitted s) {
        List<Violation> v = new ArrayList<>();
        WorkloadIds.check("workloadId", s.workloadId()).ifPresent(v::add);
        if (s.namespace() == null || s.namespace().isBlank()) v.add(new Violation("namespace", "is required"));
        s.annotations().forEach((key, value) -> {
            if (key.isBlank()) v.add(new Violation("annotations", "keys must not be blank"));
            else if (value == null) v.add(new Violation("annotations." + key, "must be a string, not null"));
        });
        String maxRetry = s.annotations().get(WorkloadSubmitted.MAX_RETRY_ANNOTATION);
        if (maxRetry != null && s.maxRetry().isEmpty()) {
            v.add(new Violation("annotations." + WorkloadSubmitted.MAX_RETRY_ANNOTATION,
                    "must be a whole number >= 0 (the retries after a failure), was '" + maxRetry + "'"));
        }
        String runtime = s.annotations().get(WorkloadSubmitted.EXPECTED_RUNTIME_ANNOTATION);
        if (runtime != null && s.expectedRuntime().isEmpty()) {
            v.add(new Violation("annotations." + WorkloadSubmitted.EXPECTED_RUNTIME_ANNOTATION,
                    "must be an ISO-8601 duration greater than zero (the expected run time, e.g. PT2H or PT90M), was '"
                            + runtime + "'"));
        }
        if (s.podSets() == null || s.podSets().isEmpty()) {
            v.add(new Violation("podSets", "must list at least one pod set"));
            return v;
        }
        Set<String> names = new HashSet<>();
        for (int i = 0; i < s.podSets().size(); i++) {
            PodSetSpec p = s.podSets().get(i);
            String path = "podSets[" + i + "]";
            if (p == null) {
                v.add(new Violation(path, "must be an object"));
                continue;
            }
            if (p.name() == null || p.name().isBlank()) v.add(new Violation(path + ".name", "is required"));
            else if (!names.add(p.name())) v.add(new Violation(path + ".name", "duplicate pod set name '" + p.name() + "'"));
            if (p.count() == null) v.add(new Violation(path + ".count", "is required"));
            else if (p.count() < 1) v.add(new Violation(path + ".count", "must be >= 1, was " + p.count()));
            if (p.instanceType() == null || p.instanceType().isBlank()) v.add(new Violation(path + ".instanceType", "is required"));
            if (p.requests() != null) {
                negative(v, path + ".requests.accelerators", p.requests().accelerators());
                negative(v, path + ".requests.vcpu", p.requests().vcpu());
                negative(v, path + ".requests.memoryGiB", p.requests().memoryGiB());
                v.addAll(p.requests().partitionViolations(path + ".requests"));
            }
            if (p.requiredTopology() != null && p.preferredTopology() != null) {
                v.add(new Violation(path, "give requiredTopology or preferredTopology, not both"));
            }
            level(v, path + ".requiredTopology", p.requiredTopology());
            level(v, path + ".preferredTopology", p.preferredTopology());
            PodSetValidation.nodeSelectorViolations(path, p.nodeSelector(), p.instanceType())
                    .forEach((field, rule) -> v.add(new Violation(field, rule)));
        }
        return v;
    }

    private static void negative(List<Violation> v, String path, java.math.BigDecimal d) {
        if (d != null && d.signum() < 0) v.add(new Violation(path, "must not be negative, was " + d.toPlainString()));
    }

    private static void level(List<Violation> v, String path, String level) {
        if (level != null && !TopologyLevels.isKnown(level)) {
            v.add(new Violation(path, "unknown topology level '" + level + "'; known: " + TopologyLevels.ALL));
        }
    }

    /**
     * Validates a submission against the cluster.
     *
     * @param defaultSubmittedAt used when the submission carries no time
     */
    public static Result validate(WorkloadSubmitted s, Context ctx, Instant defaultSubmittedAt) {
        List<Violation> fields = checkFields(s);
        if (!fields.isEmpty()) return new Invalid(RejectReason.InvalidWorkload, fields);
        String team = s.team();
        if (!ctx.teamExists().test(team)) {
            return new Invalid(RejectReason.UnknownTeam, List.of(new Violation("namespace",
                    "team '" + team + "' (namespace " + s.namespace() + ") has no compute quota")));
        }
        try {
            ctx.config().resolveClass(s.priorityClass());
        } catch (ValidationException e) {
            return new Invalid(RejectReason.UnknownPriorityClass, e.violations());
        }
        for (int i = 0; i < s.podSets().size(); i++) {
            PodSetSpec p = s.podSets().get(i);
            String path = "podSets[" + i + "]";
            InstanceType type = ctx.instanceTypes().get(p.instanceType());
            if (type == null) {
                return new Invalid(RejectReason.UnknownInstanceType, List.of(new Violation(path + ".instanceType",
                        "unknown instance type '" + p.instanceType() + "'")));
            }
            Resources perPod = p.requests() == null ? Resources.ZERO : p.requests().toResources();
            if (!fitsSomeNode(perPod, type, ctx.nodes())) {
                return new Invalid(RejectReason.PodFitsNoNode, List.of(new Violation(path + ".requests",
                        "one pod asks for " + perPod + ", more than any " + p.instanceType() + " node offers")));
            }
        }
        return new Valid(s.toWorkload(ctx.config(), s.submittedAt() != null ? s.submittedAt() : defaultSubmittedAt));
    }

    private static boolean fitsSomeNode(Resources perPod, InstanceType type, Collection<Node> nodes) {
        boolean anyNode = false;
        for (Node n : nodes) {
            if (n.instanceType().equals(type.name())) {
                anyNode = true;
                if (perPod.fitsIn(n.allocatable())) return true;
            }
        }
        return !anyNode && perPod.fitsIn(type.capacity());
    }
}
