package dev.taskgov.admission.api;

import dev.taskgov.admission.WorkloadReads;
import dev.taskgov.admission.WorkloadRecord;
import dev.taskgov.admission.api.WorkloadViews.Described;
import dev.taskgov.admission.api.WorkloadViews.DryRun;
import dev.taskgov.admission.api.WorkloadViews.OtherTeams;
import dev.taskgov.admission.api.WorkloadViews.QueueEntry;
import dev.taskgov.core.auth.Principal;
import dev.taskgov.core.events.PodSetSpec;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.core.topology.PodSetRequest;
import dev.taskgov.core.view.Redaction;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * An answer as its reader may see it ({@link Redaction}): a team key sees other teams' workloads only as counts and
 * amounts, an admin or a viewer sees everything.
 */
final class Redactions {

    private final Redaction redaction;
    private final WorkloadReads reads;
    private final boolean all;

    private Redactions(Redaction redaction, WorkloadReads reads, boolean all) {
        this.redaction = redaction;
        this.reads = reads;
        this.all = all;
    }

    static Redactions of(Principal reader, WorkloadReads reads) {
        if (reader.mayReadAll()) return new Redactions(Redaction.none(), reads, true);
        return new Redactions(new Redaction(reader::mayRead, id -> reads.workload(id).map(WorkloadRecord::team).orElse(null)),
                reads, false);
    }

    Described described(Described d) {
        if (all) return d;
        return new Described(d.workloadId(), d.team(), d.clusterArn(), d.state(), d.reason(), redaction.text(d.message()),
                d.submittedAt(), d.clientSubmittedAt(), d.admittedAt(), d.placement(), d.borrowed(),
                d.history() == null ? null : d.history().stream().map(c -> new WorkloadRecord.Condition(c.time(), c.state(), c.reason(),
                        redaction.text(c.message()), c.count(), c.firstTime())).toList(),
                d.annotations(), d.retries(), d.startEstimate());
    }

    QueueEntry queueEntry(QueueEntry e) {
        if (all) return e;
        return new QueueEntry(e.position(), e.workloadId(), e.priority(), e.submittedAt(), e.reason(), redaction.text(e.message()),
                e.startEstimate());
    }

    DryRun dryRun(DryRun d) {
        if (all) return d;
        Redaction.Victims v = redaction.victims(d.preempting() == null ? List.of() : d.preempting(), this::requestsOf);
        String message = redaction.text(d.message());
        if (v.otherTeams() > 0) message = message + "; " + v.summary();
        return new DryRun(d.workloadId(), d.team(), d.clusterArn(), d.verdict(), d.wouldBeAdmitted(), d.reason(), message,
                d.placement(), d.borrowed(), v.named(),
                v.otherTeams() == 0 ? null : new OtherTeams(v.otherTeams(), WorkloadViews.amounts(v.otherTeamsHold())));
    }

    /** What a workload requests per instance type, from its recorded submission. */
    private Map<String, Resources> requestsOf(String id) {
        Map<String, Resources> out = new TreeMap<>();
        reads.workload(id).map(WorkloadRecord::spec).ifPresent(spec -> {
            if (spec.podSets() == null) return;
            for (PodSetSpec p : spec.podSets()) {
                PodSetRequest r = p.toRequest();
                out.merge(r.instanceType(), r.total(), Resources::plus);
            }
        });
        return out;
    }
}
