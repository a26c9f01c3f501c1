package dev.taskgov.core.events;

import dev.taskgov.core.model.ValidationException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The {@code ClusterArn} a quota API body names, read without the rest of the body; and {@link JsonText}, the member of
 * a typed request that keeps a body's JSON for its translator.
 */
class ClusterArnMemberTest {

    private static final String ARN = "arn:aws:sagemaker:us-east-1:123456789012:cluster/abc123";

    record Case(String name, String json, String named, String refusal) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Case> cases() {
        return Stream.of(
                new Case("a quota body naming its cluster", "{\"Name\": \"q\", \"ClusterArn\": \"" + ARN + "\", \"ComputeQuotaConfig\": {}}",
                        ARN, null),
                new Case("a body naming none", "{\"Name\": \"q\"}", null, null),
                new Case("ClusterArn null: names none", "{\"ClusterArn\": null}", null, null),
                new Case("text that is not an ARN: its rule is the caller's", "{\"ClusterArn\": \"cluster-1\"}", "cluster-1", null),
                new Case("not JSON: the translator's to name", "{\"ClusterArn\": ", null, null),
                new Case("a list, not an object: the translator's to name", "[1]", null, null),
                new Case("JSON null", "null", null, null),
                new Case("no bytes at all", "", null, null),
                new Case("ClusterArn a number", "{\"ClusterArn\": 7}", null,
                        "ClusterArn: must be a HyperPod cluster ARN"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void readsTheClusterArnMemberAlone(Case c) {
        byte[] json = c.json().getBytes(StandardCharsets.UTF_8);
        if (c.refusal() != null) {
            assertThatThrownBy(() -> ClusterArnMember.of(json)).isInstanceOf(ValidationException.class).hasMessageStartingWith(c.refusal());
        } else {
            assertThat(ClusterArnMember.of(json).orElse(null)).isEqualTo(c.named());
        }
    }

    record Holder(@com.fasterxml.jackson.annotation.JsonProperty("Body") JsonText body) {
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("values")
    void jsonTextKeepsAMembersValueForItsTranslator(String name, String member, String kept) {
        Holder h = EventCodec.read("{\"Body\": " + member + "}", Holder.class);
        assertThat(h.body() == null ? null : h.body().toString()).as(name).isEqualTo(kept);
    }

    static Stream<org.junit.jupiter.params.provider.Arguments> values() {
        return Stream.of(
                org.junit.jupiter.params.provider.Arguments.of("an object", "{\"Name\": \"q\", \"Count\": 2}", "{\"Name\":\"q\",\"Count\":2}"),
                org.junit.jupiter.params.provider.Arguments.of("a decimal as given", "{\"Accelerators\": 1.5}", "{\"Accelerators\":1.5}"),
                org.junit.jupiter.params.provider.Arguments.of("a list", "[1, \"a\"]", "[1,\"a\"]"),
                org.junit.jupiter.params.provider.Arguments.of("JSON null: no value", "null", null));
    }
}
