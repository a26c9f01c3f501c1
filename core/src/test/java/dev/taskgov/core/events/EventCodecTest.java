package dev.taskgov.core.events;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The one codec reads exactly what the contract says, and names the field of what it refuses. */
class EventCodecTest {

    private static final String POD_SET = "{\"name\":\"worker\",\"count\":2,\"instanceType\":\"ml.p5.48xlarge\","
            + "\"requests\":{\"accelerators\":1,\"vcpu\":4.5,\"memoryGiB\":32}}";
    private static final String GOOD = "{\"workloadId\":\"w1\",\"namespace\":\"hyperpod-ns-a\",\"submittedAt\":\"2026-11-30T10:00:00Z\","
            + "\"podSets\":[" + POD_SET + "]}";

    record Refused(String name, Class<?> type, String json, String path, String problem) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Refused> refused() {
        return Stream.of(
                new Refused("a fractional count is not a whole number", WorkloadSubmitted.class,
                        GOOD.replace("\"count\":2", "\"count\":1.5"), "$.podSets[0].count", "1.5"),
                new Refused("a count written as text is not a number", WorkloadSubmitted.class,
                        GOOD.replace("\"count\":2", "\"count\":\"3\""), "$.podSets[0].count", "String"),
                new Refused("an amount written as text is not a number", WorkloadSubmitted.class,
                        GOOD.replace("\"accelerators\":1", "\"accelerators\":\"1\""), "$.podSets[0].requests.accelerators", "String"),
                new Refused("an unknown resource name is not ignored (resources are a closed set)", WorkloadSubmitted.class,
                        GOOD.replace("\"accelerators\":1", "\"gpus\":1"), "$.podSets[0].requests.gpus", "gpus"),
                new Refused("a number is not an id", WorkloadSubmitted.class,
                        GOOD.replace("\"w1\"", "17"), "$.workloadId", "Integer"),
                new Refused("trailing garbage after the value", WorkloadSubmitted.class,
                        GOOD + "xyz", "$", "xyz"),
                new Refused("a second value after the first", WorkloadSubmitted.class,
                        GOOD + GOOD, "$", "Trailing token"),
                new Refused("a field given twice", WorkloadSubmitted.class,
                        GOOD.replace("{\"workloadId\":\"w1\",", "{\"workloadId\":\"w1\",\"workloadId\":\"w2\","), "$", "workloadId"),
                new Refused("an unknown enum value", WorkloadFinished.class,
                        "{\"workloadId\":\"w1\",\"outcome\":\"Exploded\"}", "$.outcome", "Exploded"),
                new Refused("an enum given by its number", WorkloadFinished.class,
                        "{\"workloadId\":\"w1\",\"outcome\":1}", "$.outcome", "from number 1"),
                new Refused("a boolean written as text", NodeRecord.class,
                        "{\"name\":\"n1\",\"instanceType\":\"ml.p5.48xlarge\",\"ready\":\"true\"}", "$.ready", "String"),
                new Refused("a boolean written as a number", NodeRecord.class,
                        "{\"name\":\"n1\",\"instanceType\":\"ml.p5.48xlarge\",\"ready\":1}", "$.ready", "Integer"),
                new Refused("a time that is not ISO-8601", WorkloadFinished.class,
                        "{\"workloadId\":\"w1\",\"finishedAt\":\"yesterday\"}", "$.finishedAt", "ISO-8601"),
                new Refused("a time given as a number", WorkloadFinished.class,
                        "{\"workloadId\":\"w1\",\"finishedAt\":1764496800}", "$.finishedAt", "ISO-8601"),
                new Refused("an object where a list belongs", WorkloadSubmitted.class,
                        GOOD.replace("[" + POD_SET + "]", POD_SET), "$.podSets", "ArrayList"),
                new Refused("not JSON at all", WorkloadSubmitted.class, "workloadId=w1", "$", "Unrecognized token"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refused")
    void refusesWithTheFieldPath(Refused c) {
        assertThatThrownBy(() -> EventCodec.read(c.json(), c.type()))
                .isInstanceOfSatisfying(EventCodec.EventFormatException.class, e -> {
                    assertThat(e.path()).isEqualTo(c.path());
                    assertThat(e.getMessage()).contains(c.problem());
                });
    }

    record Accepted(String name, String json, WorkloadSubmitted expected) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Accepted> accepted() {
        WorkloadSubmitted base = new WorkloadSubmitted("w1", "hyperpod-ns-a", null, null, null, Instant.parse("2026-11-30T10:00:00Z"),
                List.of(new PodSetSpec("worker", 2, "ml.p5.48xlarge",
                        new ResourceAmounts(BigDecimal.ONE, new BigDecimal("4.5"), new BigDecimal("32")), null, null)));
        return Stream.of(
                new Accepted("the design's shape", GOOD, base),
                new Accepted("an unknown field is ignored (a newer producer may add one)",
                        GOOD.replace("{\"workloadId\"", "{\"labels\":{\"x\":\"y\"},\"workloadId\""), base),
                new Accepted("whitespace after the value is fine", GOOD + " \n", base));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("accepted")
    void reads(Accepted c) {
        assertThat(EventCodec.read(c.json(), WorkloadSubmitted.class)).isEqualTo(c.expected());
    }

    @Test
    void writesTimesAsIsoTextAndLeavesNullsOut() {
        String json = EventCodec.write(new WorkloadStatus("w1", "a", dev.taskgov.core.model.WorkloadState.Admitted, null, "admitted",
                Instant.parse("2026-11-30T10:00:01Z")));
        assertThat(json).isEqualTo("{\"workloadId\":\"w1\",\"team\":\"a\",\"state\":\"Admitted\",\"message\":\"admitted\","
                + "\"updatedAt\":\"2026-11-30T10:00:01Z\"}");
        assertThat(EventCodec.read(json, WorkloadStatus.class).updatedAt()).isEqualTo(Instant.parse("2026-11-30T10:00:01Z"));
    }

    /**
     * {@link EventCodec#bytes} writes into a buffer its thread keeps, and its instants as ASCII straight into the UTF-8
     * output; {@link EventCodec#write} takes neither path. Both must give the same JSON: records small and large, one
     * larger than the buffer kept after it, and instants on and off the direct path (years beyond 9999).
     */
    @Test
    void bytesAreTheUtf8OfTheTextWrittenWhateverTheRecordsSizeAndItsInstants() {
        List<Instant> times = List.of(Instant.parse("2026-11-30T10:00:01Z"), Instant.parse("2026-11-30T10:00:01.123456789Z"),
                Instant.parse("+12026-01-01T00:00:00Z"), Instant.parse("-0001-06-01T00:00:00.5Z"));
        for (int size : new int[]{0, 10, 9_000, 300_000, 20}) {
            for (Instant time : times) {
                WorkloadStatus status = new WorkloadStatus("w1", "a", dev.taskgov.core.model.WorkloadState.Pending,
                        "QuotaExceeded", "\u00e9\"\n".repeat(size), time);
                byte[] bytes = EventCodec.bytes(status);
                assertThat(new String(bytes, java.nio.charset.StandardCharsets.UTF_8)).isEqualTo(EventCodec.write(status));
                assertThat(EventCodec.read(bytes, WorkloadStatus.class)).isEqualTo(status);
            }
        }
    }

    /** A value whose serializer encodes another record with {@link EventCodec#bytes} while it is itself being written. */
    @com.fasterxml.jackson.databind.annotation.JsonSerialize(using = Nesting.Writer.class)
    record Nesting(WorkloadStatus inner) {
        static final class Writer extends com.fasterxml.jackson.databind.JsonSerializer<Nesting> {
            @Override
            public void serialize(Nesting value, com.fasterxml.jackson.core.JsonGenerator gen,
                                  com.fasterxml.jackson.databind.SerializerProvider serializers) throws java.io.IOException {
                gen.writeStartObject();
                gen.writeStringField("inner", new String(EventCodec.bytes(value.inner()), java.nio.charset.StandardCharsets.UTF_8));
                gen.writeEndObject();
            }
        }
    }

    @Test
    void aRecordEncodedWhileAnotherIsBeingEncodedLeavesTheOuterOneWhole() {
        WorkloadStatus inner = new WorkloadStatus("w2", "b", dev.taskgov.core.model.WorkloadState.Admitted, null, "admitted",
                Instant.parse("2026-11-30T10:00:02Z"));
        Nesting outer = new Nesting(inner);

        String written = new String(EventCodec.bytes(outer), java.nio.charset.StandardCharsets.UTF_8);

        String innerQuoted = new String(com.fasterxml.jackson.core.io.JsonStringEncoder.getInstance().quoteAsString(EventCodec.write(inner)));
        assertThat(written).isEqualTo(EventCodec.write(outer)).isEqualTo("{\"inner\":\"" + innerQuoted + "\"}");
    }

    @Test
    void annotationsTravelWhenGivenAndAreLeftOutWhenEmpty() {
        WorkloadSubmitted plain = new WorkloadSubmitted("w1", "hyperpod-ns-a", "q", null, "Job", Instant.parse("2026-11-30T10:00:00Z"),
                java.util.List.of());
        assertThat(EventCodec.write(plain)).doesNotContain("annotations");
        assertThat(EventCodec.read(EventCodec.write(plain), WorkloadSubmitted.class).annotations()).isEmpty();

        WorkloadSubmitted annotated = plain.withAnnotations(java.util.Map.of(WorkloadSubmitted.IMAGE_ANNOTATION, "example/train:1"));
        assertThat(EventCodec.write(annotated)).endsWith(",\"annotations\":{\"taskgov.dev/image\":\"example/train:1\"}}");
        assertThat(EventCodec.read(EventCodec.write(annotated), WorkloadSubmitted.class)).isEqualTo(annotated);
    }

    @Test
    void decodedSubmissionsShareTheNamesTheyHaveInCommonAndKeepTheirOwnIds() {
        String json = "{\"workloadId\":\"%s\",\"namespace\":\"hyperpod-ns-team-a\",\"queueName\":\"hyperpod-ns-team-a-localqueue\","
                + "\"priorityClass\":\"training\",\"jobKind\":\"PyTorchJob\",\"clusterArn\":\"arn:aws:sagemaker:us-west-2:000000000000:cluster/c1\","
                + "\"podSets\":[{\"name\":\"main\",\"count\":2,\"instanceType\":\"ml.p5.48xlarge\",\"requests\":{\"accelerators\":1},"
                + "\"requiredTopology\":\"topology.k8s.aws/network-node-layer-3\"}]}";
        WorkloadSubmitted a = EventCodec.read(json.formatted("w1"), WorkloadSubmitted.class);
        WorkloadSubmitted b = EventCodec.read(json.formatted("w2"), WorkloadSubmitted.class);

        assertThat(b.namespace()).isSameAs(a.namespace());
        assertThat(b.queueName()).isSameAs(a.queueName());
        assertThat(b.priorityClass()).isSameAs(a.priorityClass());
        assertThat(b.jobKind()).isSameAs(a.jobKind());
        assertThat(b.clusterArn()).isSameAs(a.clusterArn());
        assertThat(b.team()).isEqualTo("team-a").isSameAs(a.team());
        assertThat(b.podSets().get(0).name()).isSameAs(a.podSets().get(0).name());
        assertThat(b.podSets().get(0).instanceType()).isSameAs(a.podSets().get(0).instanceType());
        assertThat(b.podSets().get(0).requiredTopology()).isSameAs(a.podSets().get(0).requiredTopology());
        assertThat(List.of(a.workloadId(), b.workloadId())).containsExactly("w1", "w2");
        assertThat(EventCodec.read(EventCodec.write(a), WorkloadSubmitted.class)).isEqualTo(a);
    }

    @Test
    void treeRefusesTrailingGarbageToo() {
        assertThatThrownBy(() -> EventCodec.tree("{\"Name\":\"q\"} xyz".getBytes()))
                .isInstanceOf(EventCodec.EventFormatException.class).hasMessageContaining("xyz");
        assertThatThrownBy(() -> EventCodec.tree(new byte[0])).hasMessageContaining("no value");
    }
}
