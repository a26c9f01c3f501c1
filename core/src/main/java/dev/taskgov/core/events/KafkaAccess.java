package dev.taskgov.core.events;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Who may do what on the broker: the SASL/SCRAM principals of taskgov's services, of its administrator and of
 * each team, and the ACLs that give each of them least rights. The broker enforces them (KRaft's
 * {@code StandardAuthorizer}; nothing is allowed that no ACL allows). The local runtime and test-support create
 * exactly these grants; docs/security.md lists them. Plain data, so that {@code core} stays free of Kafka's
 * classes: the launchers translate a {@link Grant} into Kafka's own ACL binding.
 */
public final class KafkaAccess {

    /** The SASL mechanism of every client listener. */
    public static final String MECHANISM = "SCRAM-SHA-256";
    /** The broker's own principal and the operators': a super user, never given to a service or a team. */
    public static final String ADMIN = "taskgov-admin";

    public static final String QUOTA_SERVICE = "quota-service";
    public static final String TOPOLOGY_SERVICE = "topology-service";
    public static final String ADMISSION_SERVICE = "admission-service";
    public static final String PREEMPTION_SERVICE = "preemption-service";
    public static final String JOB_WATCHER = "job-watcher";

    /** Every service principal, one per service. */
    public static final List<String> SERVICES =
            List.of(QUOTA_SERVICE, TOPOLOGY_SERVICE, ADMISSION_SERVICE, PREEMPTION_SERVICE, JOB_WATCHER);

    /** A team's principal is {@code team.<team>}: the dot keeps it apart from every service name. */
    public static final String TEAM_PRINCIPAL_PREFIX = "team.";

    /**
     * What a team name may be for it to name a topic and a principal: Kubernetes' namespace rule (lower-case
     * letters, digits and '-', starting and ending with a letter or digit), as a team is the {@code <team>} of
     * {@code hyperpod-ns-<team>}.
     */
    public static final Pattern TEAM_NAME = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");

    public enum ResourceType { TOPIC, GROUP, TRANSACTIONAL_ID }

    /** LITERAL: exactly this name; PREFIXED: every name that starts with it. */
    public enum PatternType { LITERAL, PREFIXED }

    /** DESCRIBE_CONFIGS: read a topic's settings (a decider reads the record-batch limit of each topic it writes). */
    public enum Operation { READ, WRITE, CREATE, DESCRIBE, DESCRIBE_CONFIGS }

    /** One ALLOW ACL: {@code User:<principal>} may do {@code operation} on the resources the pattern names. */
    public record Grant(String principal, ResourceType resourceType, PatternType patternType, String name,
                        Operation operation) {
    }

    private KafkaAccess() {
    }

    /** The principal of a team. */
    public static String teamPrincipal(String team) {
        return TEAM_PRINCIPAL_PREFIX + requireTeamName(team);
    }

    /** The team's own submission topic, {@code taskgov.workload.submitted.<team>}: only that team's principal writes it. */
    public static String submissionTopic(String submittedTopic, String team) {
        return submittedTopic + "." + requireTeamName(team);
    }

    /** Every team's submission topic (and nothing else), for a consumer that subscribes by pattern. */
    public static Pattern submissionTopics(String submittedTopic) {
        return Pattern.compile(Pattern.quote(submittedTopic + ".") + TEAM_NAME.pattern());
    }

    /** The team of a submission topic, or null when the topic is not one. */
    public static String teamOfSubmissionTopic(String submittedTopic, String topic) {
        return teamOfTopic(submittedTopic, topic);
    }

    /**
     * The team of {@code <prefix>.<team>}, or null: what {@link #submissionTopics} matches, without compiling a pattern
     * (the decider asks this of every record it audits).
     */
    private static String teamOfTopic(String prefix, String topic) {
        if (topic == null || topic.length() <= prefix.length() + 1 || !topic.startsWith(prefix)
                || topic.charAt(prefix.length()) != '.') {
            return null;
        }
        String team = topic.substring(prefix.length() + 1);
        return TEAM_NAME.matcher(team).matches() ? team : null;
    }

    /**
     * The team's own readiness topic, {@code taskgov.workload.pods-ready.<team>}: only that team's principal writes it,
     * and a report there counts only for that team's workloads (gang admission, as submissions).
     */
    public static String podsReadyTopic(String podsReadyTopic, String team) {
        return podsReadyTopic + "." + requireTeamName(team);
    }

    /** The team of a readiness topic, or null when the topic is not a team's. */
    public static String teamOfPodsReadyTopic(String podsReadyTopic, String topic) {
        return podsReadyTopic == null ? null : teamOfTopic(podsReadyTopic, topic);
    }

    /**
     * Every team's submission topic and every team's readiness topic (and nothing else), for a consumer that
     * subscribes by pattern (a new team's topics join as they are created).
     */
    public static Pattern teamTopics(String submittedTopic, String podsReadyTopic) {
        return Pattern.compile(submissionTopics(submittedTopic).pattern() + "|" + submissionTopics(podsReadyTopic).pattern());
    }

    /** Throws, naming the rule, unless the team name can name a topic and a principal. */
    public static String requireTeamName(String team) {
        if (team == null || !TEAM_NAME.matcher(team).matches()) {
            throw new IllegalArgumentException("team '" + team + "' is not a team name: lower-case letters, digits and"
                    + " '-', 1 to 63 characters, starting and ending with a letter or digit");
        }
        return team;
    }

    /**
     * The Java client settings of a principal (the same keys a {@code client.properties} file takes):
     * SASL/SCRAM over the broker's SASL_PLAINTEXT listener.
     */
    public static Map<String, String> clientProperties(String principal, String password) {
        return Map.of(
                "security.protocol", "SASL_PLAINTEXT",
                "sasl.mechanism", MECHANISM,
                "sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required username=\""
                        + principal + "\" password=\"" + password + "\";");
    }

    /**
     * Every service's grants, with each topic under the name {@code names} gives it (its default unless renamed).
     * Consumer groups and transactional ids are granted by prefix: a service names them after itself plus an
     * instance or cluster suffix.
     */
    public static List<Grant> serviceGrants(Function<TopicCatalog.Topic, String> names) {
        List<Grant> grants = new ArrayList<>();
        String submittedTeams = names.apply(TopicCatalog.WORKLOAD_SUBMITTED) + ".";
        String podsReadyTeams = names.apply(TopicCatalog.WORKLOAD_PODS_READY) + ".";

        // quota-service: publishes quotas and the access keys it owns; reads the nodes; stores every service's
        // audit records (group quota-service-audit); dead-letters what it cannot read.
        write(grants, QUOTA_SERVICE, names, TopicCatalog.QUOTA, TopicCatalog.CREDENTIALS, TopicCatalog.AUDIT,
                TopicCatalog.DEADLETTER);
        read(grants, QUOTA_SERVICE, names, TopicCatalog.TOPOLOGY, TopicCatalog.AUDIT);
        // its what-if (POST /what-if) replays the recorded quotas, submissions (every team's), admissions and finishes,
        // and tells what runs now from the admissions, evictions and finishes
        read(grants, QUOTA_SERVICE, names, TopicCatalog.QUOTA, TopicCatalog.WORKLOAD_SUBMITTED, TopicCatalog.WORKLOAD_ADMITTED,
                TopicCatalog.WORKLOAD_PREEMPTED, TopicCatalog.WORKLOAD_FINISHED);
        prefixed(grants, QUOTA_SERVICE, submittedTeams, Operation.READ);
        group(grants, QUOTA_SERVICE, "quota-service-");

        // topology-service: publishes nodes; reads what workloads hold to know free capacity; verifies its HTTP
        // callers against the access keys (read by assignment, no group) and audits refusals.
        write(grants, TOPOLOGY_SERVICE, names, TopicCatalog.TOPOLOGY, TopicCatalog.AUDIT, TopicCatalog.DEADLETTER);
        read(grants, TOPOLOGY_SERVICE, names, TopicCatalog.CREDENTIALS);
        read(grants, TOPOLOGY_SERVICE, names, TopicCatalog.TOPOLOGY, TopicCatalog.WORKLOAD_ADMITTED,
                TopicCatalog.WORKLOAD_FINISHED, TopicCatalog.WORKLOAD_PREEMPTED);
        read(grants, TOPOLOGY_SERVICE, names, TopicCatalog.WORKLOAD_SUBMITTED);
        prefixed(grants, TOPOLOGY_SERVICE, submittedTeams, Operation.READ);
        group(grants, TOPOLOGY_SERVICE, "topology-service-");

        // admission-service: the only writer of admissions; reads every team's submissions (and publishes the
        // ones its HTTP API accepted for an authenticated team), decides in a transaction; verifies its HTTP callers
        // against the access keys (read by assignment, no group) and audits submissions and refusals. It writes
        // finishes only to forward one that a producer put on another cluster's partition to its cluster's
        // (TransactionalLoop); no team writes them. It does not write preemptions: its own evictions without a
        // preemptor (NodeFailure, QuotaRemoved) go to preemption-service on the requests topic (EvictionDecided).
        write(grants, ADMISSION_SERVICE, names, TopicCatalog.WORKLOAD_ADMITTED, TopicCatalog.WORKLOAD_STATUS,
                TopicCatalog.PREEMPTION_REQUESTED, TopicCatalog.DEADLETTER, TopicCatalog.ADMISSION_CHANGELOG,
                TopicCatalog.AUDIT, TopicCatalog.WORKLOAD_FINISHED);
        read(grants, ADMISSION_SERVICE, names, TopicCatalog.CREDENTIALS);
        read(grants, ADMISSION_SERVICE, names, TopicCatalog.WORKLOAD_FINISHED, TopicCatalog.WORKLOAD_PREEMPTED,
                TopicCatalog.WORKLOAD_ADMITTED, TopicCatalog.WORKLOAD_STATUS, TopicCatalog.QUOTA, TopicCatalog.TOPOLOGY,
                TopicCatalog.ADMISSION_CHANGELOG);
        literal(grants, ADMISSION_SERVICE, names.apply(TopicCatalog.ADMISSION_CHANGELOG), Operation.CREATE);
        read(grants, ADMISSION_SERVICE, names, TopicCatalog.WORKLOAD_SUBMITTED);
        write(grants, ADMISSION_SERVICE, names, TopicCatalog.WORKLOAD_SUBMITTED);
        prefixed(grants, ADMISSION_SERVICE, submittedTeams, Operation.READ);
        prefixed(grants, ADMISSION_SERVICE, submittedTeams, Operation.WRITE);
        // gang admission's readiness reports: the shared topic (the job watcher's, and the ones its HTTP API accepted)
        // and every team's own, read as submissions are (written to forward one to its cluster's partition)
        read(grants, ADMISSION_SERVICE, names, TopicCatalog.WORKLOAD_PODS_READY);
        write(grants, ADMISSION_SERVICE, names, TopicCatalog.WORKLOAD_PODS_READY);
        prefixed(grants, ADMISSION_SERVICE, podsReadyTeams, Operation.READ);
        prefixed(grants, ADMISSION_SERVICE, podsReadyTeams, Operation.WRITE);
        // its transactions' batches must fit what each topic they write accepts (max.message.bytes, read at start)
        limitsOfTopicsWritten(grants, ADMISSION_SERVICE);
        group(grants, ADMISSION_SERVICE, "taskgov-admission");
        transactional(grants, ADMISSION_SERVICE, "taskgov-admission-");

        // preemption-service: the only writer of preemptions, its own and the evictions admission-service decided
        // without a preemptor and handed to it on the requests topic; reads the requests and the state it decides on
        // (every team's submissions included).
        write(grants, PREEMPTION_SERVICE, names, TopicCatalog.WORKLOAD_PREEMPTED, TopicCatalog.WORKLOAD_STATUS,
                TopicCatalog.DEADLETTER, TopicCatalog.PREEMPTION_CHANGELOG);
        read(grants, PREEMPTION_SERVICE, names, TopicCatalog.PREEMPTION_REQUESTED, TopicCatalog.WORKLOAD_STATUS,
                TopicCatalog.WORKLOAD_ADMITTED, TopicCatalog.WORKLOAD_PREEMPTED, TopicCatalog.WORKLOAD_FINISHED,
                TopicCatalog.QUOTA, TopicCatalog.TOPOLOGY, TopicCatalog.PREEMPTION_CHANGELOG, TopicCatalog.WORKLOAD_SUBMITTED);
        prefixed(grants, PREEMPTION_SERVICE, submittedTeams, Operation.READ);
        literal(grants, PREEMPTION_SERVICE, names.apply(TopicCatalog.PREEMPTION_CHANGELOG), Operation.CREATE);
        limitsOfTopicsWritten(grants, PREEMPTION_SERVICE);
        group(grants, PREEMPTION_SERVICE, "taskgov-preemption");
        transactional(grants, PREEMPTION_SERVICE, "taskgov-preemption-");

        // job-watcher: submits each job to the submission topic of its namespace's team (it trusts the namespace,
        // not the job's labels) and reports finished jobs; reads the decisions to resume or suspend jobs, and the dead
        // letters to tell a job that its submission was refused (its workload id is another team's); reports a job
        // whose pods are all ready (gang admission) on the shared readiness topic.
        prefixed(grants, JOB_WATCHER, submittedTeams, Operation.WRITE);
        write(grants, JOB_WATCHER, names, TopicCatalog.WORKLOAD_SUBMITTED, TopicCatalog.WORKLOAD_FINISHED,
                TopicCatalog.WORKLOAD_PODS_READY, TopicCatalog.DEADLETTER);
        read(grants, JOB_WATCHER, names, TopicCatalog.WORKLOAD_ADMITTED, TopicCatalog.WORKLOAD_PREEMPTED,
                TopicCatalog.WORKLOAD_STATUS, TopicCatalog.DEADLETTER);
        group(grants, JOB_WATCHER, "taskgov-job-watcher");
        return List.copyOf(grants);
    }

    /**
     * A team's grants: write (and describe) its own submission topic and its own readiness topic, by their literal
     * names. Not by prefix: the prefix {@code taskgov.workload.submitted.team-1} would also cover team-10's topic.
     */
    public static List<Grant> teamGrants(String team, Function<TopicCatalog.Topic, String> names) {
        String topic = submissionTopic(names.apply(TopicCatalog.WORKLOAD_SUBMITTED), team);
        String readiness = podsReadyTopic(names.apply(TopicCatalog.WORKLOAD_PODS_READY), team);
        String principal = teamPrincipal(team);
        return List.of(
                new Grant(principal, ResourceType.TOPIC, PatternType.LITERAL, topic, Operation.WRITE),
                new Grant(principal, ResourceType.TOPIC, PatternType.LITERAL, topic, Operation.DESCRIBE),
                new Grant(principal, ResourceType.TOPIC, PatternType.LITERAL, readiness, Operation.WRITE),
                new Grant(principal, ResourceType.TOPIC, PatternType.LITERAL, readiness, Operation.DESCRIBE));
    }

    /** A team's own topics, to create with the team: its submission topic and its readiness topic. */
    public static List<String> teamTopics(String team, Function<TopicCatalog.Topic, String> names) {
        return List.of(submissionTopic(names.apply(TopicCatalog.WORKLOAD_SUBMITTED), team),
                podsReadyTopic(names.apply(TopicCatalog.WORKLOAD_PODS_READY), team));
    }

    private static void write(List<Grant> grants, String principal, Function<TopicCatalog.Topic, String> names,
                              TopicCatalog.Topic... topics) {
        for (TopicCatalog.Topic t : topics) {
            literal(grants, principal, names.apply(t), Operation.WRITE);
            literal(grants, principal, names.apply(t), Operation.DESCRIBE);
        }
    }

    private static void read(List<Grant> grants, String principal, Function<TopicCatalog.Topic, String> names,
                             TopicCatalog.Topic... topics) {
        for (TopicCatalog.Topic t : topics) {
            literal(grants, principal, names.apply(t), Operation.READ);
            literal(grants, principal, names.apply(t), Operation.DESCRIBE);
        }
    }

    /** DescribeConfigs on every topic the principal was granted to write by its literal name (the grants so far). */
    private static void limitsOfTopicsWritten(List<Grant> grants, String principal) {
        for (Grant g : List.copyOf(grants)) {
            if (g.principal().equals(principal) && g.resourceType() == ResourceType.TOPIC
                    && g.patternType() == PatternType.LITERAL && g.operation() == Operation.WRITE) {
                literal(grants, principal, g.name(), Operation.DESCRIBE_CONFIGS);
            }
        }
    }

    private static void literal(List<Grant> grants, String principal, String topic, Operation operation) {
        Grant grant = new Grant(principal, ResourceType.TOPIC, PatternType.LITERAL, topic, operation);
        if (!grants.contains(grant)) grants.add(grant);
    }

    private static void prefixed(List<Grant> grants, String principal, String prefix, Operation operation) {
        grants.add(new Grant(principal, ResourceType.TOPIC, PatternType.PREFIXED, prefix, operation));
        Grant describe = new Grant(principal, ResourceType.TOPIC, PatternType.PREFIXED, prefix, Operation.DESCRIBE);
        if (!grants.contains(describe)) grants.add(describe);
    }

    private static void group(List<Grant> grants, String principal, String prefix) {
        grants.add(new Grant(principal, ResourceType.GROUP, PatternType.PREFIXED, prefix, Operation.READ));
    }

    private static void transactional(List<Grant> grants, String principal, String prefix) {
        grants.add(new Grant(principal, ResourceType.TRANSACTIONAL_ID, PatternType.PREFIXED, prefix, Operation.WRITE));
        grants.add(new Grant(principal, ResourceType.TRANSACTIONAL_ID, PatternType.PREFIXED, prefix, Operation.DESCRIBE));
    }
}
