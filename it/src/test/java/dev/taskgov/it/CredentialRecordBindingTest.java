package dev.taskgov.it;

import dev.taskgov.core.auth.AccessKey;
import dev.taskgov.core.auth.SecretBox;
import dev.taskgov.core.events.KafkaAccess;
import dev.taskgov.core.events.TopicCatalog;
import dev.taskgov.service.support.auth.CredentialDirectory;
import dev.taskgov.testsupport.RestartableKafka;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import static dev.taskgov.it.CredentialDirectoryRestartTest.createCompacted;
import static dev.taskgov.it.CredentialDirectoryRestartTest.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * admission- and topology-service trust a credentials record only as far as its sealed secret: a record that gives a
 * key another principal or more roles than it was sealed with (written by whoever could write the topic or forge an
 * outbox row, without the master key) makes the key unusable there, not an admin.
 */
class CredentialRecordBindingTest {

    @Test
    void aRecordWhoseRolesOrPrincipalWereChangedMakesTheKeyUnusable() throws Exception {
        try (RestartableKafka broker = RestartableKafka.start("credentials-binding")) {
            Map<String, Object> admin = broker.clientProperties(KafkaAccess.ADMIN);
            String topic = TopicCatalog.Names.CREDENTIALS;
            createCompacted(admin, topic); // one partition: the records below are read in the order written
            SecretBox box = SecretBox.of(SecretBox.newMasterKey());
            String id = AccessKey.newKeyId();
            String secret = AccessKey.newSecret();
            String sealed = box.encrypt(id, "ops", List.of("viewer"), secret);
            String otherId = AccessKey.newKeyId();
            String otherSealed = box.encrypt(otherId, "ops-2", List.of("viewer"), AccessKey.newSecret());

            Properties reader = new Properties();
            reader.putAll(broker.clientProperties(KafkaAccess.ADMISSION_SERVICE));
            try (CredentialDirectory directory = new CredentialDirectory(reader, topic, box).start()) {
                write(admin, topic, id, new AccessKey(id, "ops", List.of("viewer"), sealed).toJson());
                await("the key as made").atMost(Duration.ofMinutes(2)).until(() -> directory.find(id).isPresent());
                assertThat(directory.find(id).orElseThrow().secret()).isEqualTo(secret);

                write(admin, topic, id, new AccessKey(id, "ops", List.of("admin"), sealed).toJson());
                write(admin, topic, otherId, new AccessKey(otherId, "admin", List.of("viewer"), otherSealed).toJson());
                String sentinel = AccessKey.newKeyId();
                write(admin, topic, sentinel, new AccessKey(sentinel, "s", List.of("viewer"),
                        box.encrypt(sentinel, "s", List.of("viewer"), AccessKey.newSecret())).toJson());
                await("the records after the forged ones").atMost(Duration.ofMinutes(2))
                        .until(() -> directory.find(sentinel).isPresent());

                assertThat(directory.find(id)).as("a viewer key whose record says admin").isEmpty();
                assertThat(directory.find(otherId)).as("a key whose record names another principal").isEmpty();
            }
        }
    }
}
