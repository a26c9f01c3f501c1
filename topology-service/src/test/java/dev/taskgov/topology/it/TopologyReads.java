package dev.taskgov.topology.it;

import dev.taskgov.testsupport.SignedRestAssured;
import dev.taskgov.testsupport.TestCredentials;
import io.restassured.specification.RequestSpecification;

/** {@code GET /topology} as a viewer reads it: signed with a viewer key of the credentials topic. */
final class TopologyReads {

    private static TestCredentials.Key viewer;

    private TopologyReads() {
    }

    /** A signed request, once the running application knows the viewer key. */
    static synchronized RequestSpecification asViewer() {
        if (viewer == null) {
            viewer = TestCredentials.onTopic("topology-test-viewer", "viewer");
        }
        return SignedRestAssured.given(SignedRestAssured.awaitKnown(viewer, "/topology"));
    }
}
