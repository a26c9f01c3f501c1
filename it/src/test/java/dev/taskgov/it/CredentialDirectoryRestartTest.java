package dev.taskgov.it;

import dev.taskgov.core.auth.AccessKey;
import dev.taskgov.core.auth.SecretBox;
import dev.taskgov.core.events.KafkaAccess;
import dev.taskgov.core.events.TopicCatalog;
import dev.taskgov.service.support.auth.CredentialDirectory;
import dev.taskgov.testsupport.RestartableKafka;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The access keys admission- and topology-service verify signatures with come from the credentials topic; its reader
 * must outlast a broker that is away when the service starts (or too slow to answer, as on a loaded machine): it
 * retries, and once the broker is back it sees the keys written before, the keys written since, and revocations.
 */
class CredentialDirectoryRestartTest {

    @Test
    void theReaderStartedWhileTheBrokerIsDownRetriesAndThenSeesNewAndRevokedKeys() throws Exception {
        try (RestartableKafka broker = RestartableKafka.start("credentials-reader")) {
            Map<String, Object> admin = broker.clientProperties(KafkaAccess.ADMIN);
            String topic = TopicCatalog.Names.CREDENTIALS;
            createCompacted(admin, topic);
            SecretBox box = SecretBox.of(SecretBox.newMasterKey());
            AccessKey before = key(box, "team.alpha");
            write(admin, topic, before.accessKeyId(), before.toJson());

            broker.kill();
            Properties reader = new Properties();
            reader.putAll(broker.clientProperties(KafkaAccess.ADMISSION_SERVICE));
            try (CredentialDirectory directory = new CredentialDirectory(reader, topic, box).start()) {
                await("a failed read while the broker is away").atMost(Duration.ofMinutes(2)).until(() -> directory.failedReads() >= 1);

                broker.restart();
                AccessKey after = key(box, "team.beta");
                write(admin, topic, after.accessKeyId(), after.toJson());
                await("both keys once the broker is back").atMost(Duration.ofMinutes(2)).until(() ->
                        directory.find(before.accessKeyId()).isPresent() && directory.find(after.accessKeyId()).isPresent());
                assertThat(directory.find(after.accessKeyId()).orElseThrow().principal().name()).isEqualTo("team.beta");

                write(admin, topic, before.accessKeyId(), null); // revoked
                await("the revocation").atMost(Duration.ofMinutes(1)).until(() -> directory.find(before.accessKeyId()).isEmpty());
            }
        }
    }

    private static AccessKey key(SecretBox box, String principal) {
        String id = AccessKey.newKeyId();
        List<String> roles = List.of("team:" + principal.substring("team.".length()));
        return new AccessKey(id, principal, roles, box.encrypt(id, principal, roles, AccessKey.newSecret()));
    }

    static void createCompacted(Map<String, Object> props, String topic) throws Exception {
        try (Admin admin = Admin.create(props)) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1)
                    .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT)))).all().get(1, TimeUnit.MINUTES);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) throw e;
        }
    }

    static void write(Map<String, Object> props, String topic, String key, String value) throws Exception {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
            producer.send(new ProducerRecord<>(topic, key, value)).get(1, TimeUnit.MINUTES);
        }
    }
}
