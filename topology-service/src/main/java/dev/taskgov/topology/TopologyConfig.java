package dev.taskgov.topology;

import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;

import java.math.BigDecimal;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Node inventory settings ({@code taskgov.topology.*}), a group of {@link dev.taskgov.topology.config.TopologyServiceConfig}; defaults are declared here only. */
public interface TopologyConfig {

    enum SourceKind { STATIC, EC2, KUBERNETES }

    /** Where nodes come from: {@code static}, {@code ec2}, {@code kubernetes}, or {@code ec2,kubernetes}. */
    @WithDefault("static")
    Set<SourceKind> source();

    /**
     * The HyperPod cluster ARN of the cluster the settings above describe (its records are keyed
     * {@code <ClusterArn>#<node>} and the cluster is declared on the topic). Absent: the records name no
     * cluster (a single-cluster deployment from before clusters).
     */
    Optional<String> clusterArn();

    /**
     * Further clusters this deployment governs, by a short name, each with its own source: e.g.
     * {@code taskgov.topology.clusters.small.arn=arn:aws:sagemaker:...:cluster/...},
     * {@code taskgov.topology.clusters.small.source=static},
     * {@code taskgov.topology.clusters.small.static-file.path=deploy/local/small-cluster.json}.
     */
    Map<String, Cluster> clusters();

    /** One more governed cluster and where its nodes come from. */
    interface Cluster {
        /** Its HyperPod cluster ARN (required). */
        String arn();

        /** {@code static}, {@code ec2}, {@code kubernetes} or {@code ec2,kubernetes}. */
        @WithDefault("static")
        Set<SourceKind> source();

        /** Its inventory file, for {@code static}. */
        Optional<Path> staticFilePath();

        /** Its EC2 region (default: {@code taskgov.topology.ec2.region}). */
        Optional<String> ec2Region();

        /** Its EC2 endpoint override (default: {@code taskgov.topology.ec2.endpoint}). */
        Optional<URI> ec2Endpoint();

        /** Only these instances. */
        Optional<List<String>> ec2InstanceIds();

        /** Only instances in these placement groups. */
        Optional<List<String>> ec2PlacementGroups();

        /** Only these EC2 instance types. */
        Optional<List<String>> ec2InstanceTypes();

        /** The kubeconfig context of its Kubernetes API, for {@code kubernetes} (default: the current context). */
        Optional<String> kubernetesContext();
    }

    /** Time between two polls of EC2 (and re-reads of the static file) when all goes well. */
    @WithDefault("30s")
    Duration pollInterval();

    /** How long a refresh waits for the broker to acknowledge what it publishes (and to read the topic back at start). */
    @WithDefault("60s")
    Duration publishTimeout();

    /**
     * How often the capacity and free gauges are recomputed when something changed. Each recomputation walks
     * every node and admitted workload, so it is done at most once per interval rather than after every workload
     * event (a burst of thousands of events per second would otherwise cost more CPU than the decisions);
     * {@code GET /topology} answers from the workload events read so far ({@link #workloadEventsFetchWait}).
     */
    @WithDefault("1s")
    Duration metersRefresh();

    /**
     * How long the broker may gather workload events (submissions, admissions, finishes, preemptions) before answering
     * this service's fetch, from 0 to 1 s ({@link dev.taskgov.service.support.FollowerFetch}): the free capacity of
     * {@code GET /topology} then trails the decisions by up to that much more, for a fetch per wait rather than one
     * per transaction at a steady rate. Zero fetches as soon as anything is committed.
     */
    @WithDefault("PT0.05S")
    Duration workloadEventsFetchWait();

    /** Backoff after a failed poll: first delay, doubled after each further failure up to max. */
    Backoff backoff();

    Ec2 ec2();

    Kubernetes kubernetes();

    StaticFile staticFile();

    /** Capacity per instance type (JSON units), adding to or replacing the built-in catalog. */
    Map<String, Capacity> instanceTypes();

    interface Backoff {
        @WithDefault("1s")
        Duration initial();

        @WithDefault("5m")
        Duration max();
    }

    interface Ec2 {
        @WithDefault("us-west-2")
        String region();

        /** Endpoint override (a VPC endpoint, or a local stub in tests). */
        Optional<URI> endpoint();

        /** Static credentials; when absent the SDK's default provider chain is used. */
        Optional<String> accessKeyId();

        Optional<String> secretAccessKey();

        /** Only these instances (EC2 takes ids or placement groups, not both: ids win). */
        Optional<List<String>> instanceIds();

        /** Only instances in these placement groups. */
        Optional<List<String>> placementGroups();

        /** Only these EC2 instance types (the {@code instance-type} filter), e.g. p5.48xlarge. */
        Optional<List<String>> instanceTypes();

        /** MaxResults per page (EC2 allows 5..100 with filters; absent = EC2's default). */
        Optional<Integer> pageSize();

        /** Attempts per request; throttling and server errors are retried with exponential backoff. */
        @WithDefault("4")
        int maxAttempts();

        @WithDefault("200ms")
        Duration retryBaseDelay();

        @WithDefault("20s")
        Duration retryMaxDelay();

        @WithDefault("30s")
        Duration callTimeout();
    }

    interface Kubernetes {
        /** Write the network-node layer labels onto nodes when they differ from EC2's topology. */
        @WithDefault("true")
        boolean writeLabels();

        /** Informer resync period. */
        @WithDefault("10m")
        Duration resync();
    }

    interface StaticFile {
        /** The inventory file (JSON, or YAML by extension); re-read at every poll. */
        @WithDefault("deploy/local/demo-cluster.json")
        Path path();
    }

    interface Capacity {
        Optional<BigDecimal> accelerators();

        Optional<BigDecimal> vcpu();

        @WithName("memory-gib")
        Optional<BigDecimal> memoryGiB();

        /**
         * MIG partitions per node by profile ({@code partitions."mig-1g.10gb"=56}): the layout the EC2 source
         * gives nodes of this type, whose GPUs EC2 cannot tell are in MIG mode (set {@code accelerators} to 0
         * then, as a GPU in MIG mode is not also a whole accelerator). Each profile must be one the type offers.
         */
        Map<String, Long> partitions();
    }
}
