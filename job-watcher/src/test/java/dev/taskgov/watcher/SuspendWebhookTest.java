package dev.taskgov.watcher;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.taskgov.testsupport.KafkaTestResource;
import io.quarkus.test.common.ResourceArg;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;

/** AdmissionReviews posted to the webhook as the API server would: which creations get suspended, by which patch. */
@QuarkusTest
@TestProfile(WatcherTestProfile.class)
@WithTestResource(value = KafkaTestResource.class,
        initArgs = @ResourceArg(name = KafkaTestResource.VERIFIES_REQUESTS, value = "false"))
@WithKubernetesTestServer(crud = true, https = false)
class SuspendWebhookTest {

    static final String JOB_LABELS = "{\"kueue.x-k8s.io/queue-name\": \"hyperpod-ns-team-a-localqueue\"}";

    static String review(String operation, String kind, String group, String namespace, String labels, String spec) {
        return """
                {"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview",
                 "request": {"uid": "705ab4f5-6393-11e8-b7cc-42010a800002",
                   "kind": {"group": "%s", "version": "v1", "kind": "%s"},
                   "operation": "%s", "namespace": "%s",
                   "object": {"apiVersion": "%s/v1", "kind": "%s",
                     "metadata": {"name": "train", "namespace": "%s", "labels": %s}%s}}}
                """.formatted(group, kind, operation, namespace, group.isEmpty() ? "batch" : group, kind, namespace, labels,
                spec == null ? "" : ", \"spec\": " + spec);
    }

    static Arguments c(String name, String review, String expectedPatch) {
        return Arguments.of(name, review, expectedPatch);
    }

    static Stream<Arguments> reviews() {
        String ns = "hyperpod-ns-team-a";
        return Stream.of(
                c("a queue-labelled Job without suspend is created suspended",
                        review("CREATE", "Job", "batch", ns, JOB_LABELS, "{\"parallelism\": 2}"),
                        "[{\"op\":\"add\",\"path\":\"/spec/suspend\",\"value\":true}]"),
                c("a queue-labelled Job with suspend: false is created suspended",
                        review("CREATE", "Job", "batch", ns, JOB_LABELS, "{\"suspend\": false}"),
                        "[{\"op\":\"add\",\"path\":\"/spec/suspend\",\"value\":true}]"),
                c("a Job already suspended is left alone",
                        review("CREATE", "Job", "batch", ns, JOB_LABELS, "{\"suspend\": true}"), null),
                c("a PyTorchJob without runPolicy gets one that suspends it",
                        review("CREATE", "PyTorchJob", "kubeflow.org", ns, JOB_LABELS, "{\"pytorchReplicaSpecs\": {}}"),
                        "[{\"op\":\"add\",\"path\":\"/spec/runPolicy\",\"value\":{\"suspend\":true}}]"),
                c("an MPIJob with a runPolicy gets runPolicy.suspend",
                        review("CREATE", "MPIJob", "kubeflow.org", ns, JOB_LABELS, "{\"runPolicy\": {\"cleanPodPolicy\": \"Running\"}}"),
                        "[{\"op\":\"add\",\"path\":\"/spec/runPolicy/suspend\",\"value\":true}]"),
                c("a job without the queue label is not taskgov's", review("CREATE", "Job", "batch", ns, "{}", "{}"), null),
                c("a job outside the governed namespaces is not taskgov's",
                        review("CREATE", "Job", "batch", "default", JOB_LABELS, "{}"), null),
                c("an update is not a creation: an admitted job stays running",
                        review("UPDATE", "Job", "batch", ns, JOB_LABELS, "{\"suspend\": false}"), null),
                c("another kind passes unchanged", review("CREATE", "Deployment", "apps", ns, JOB_LABELS, "{}"), null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("reviews")
    void mutates(String name, String review, String expectedPatch) {
        JsonPath response = given().contentType(ContentType.JSON).body(review)
                .when().post("/admission/suspend-jobs")
                .then().statusCode(200).extract().jsonPath();

        assertThat(response.getString("apiVersion")).isEqualTo("admission.k8s.io/v1");
        assertThat(response.getString("kind")).isEqualTo("AdmissionReview");
        assertThat(response.getString("response.uid")).isEqualTo("705ab4f5-6393-11e8-b7cc-42010a800002");
        assertThat(response.getBoolean("response.allowed")).isTrue();
        if (expectedPatch == null) {
            assertThat(response.getString("response.patch")).isNull();
            assertThat(response.getString("response.patchType")).isNull();
        } else {
            assertThat(response.getString("response.patchType")).isEqualTo("JSONPatch");
            assertThat(new String(Base64.getDecoder().decode(response.getString("response.patch")), StandardCharsets.UTF_8))
                    .isEqualTo(expectedPatch);
        }
    }
}
