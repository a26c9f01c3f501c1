package dev.taskgov.testsupport;

import dev.taskgov.core.auth.AccessKey;
import dev.taskgov.core.auth.Role;
import dev.taskgov.core.auth.SecretBox;
import dev.taskgov.core.events.TopicCatalog;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * Access keys for tests, made the way quota-service makes them (a fresh id and secret, the secret encrypted with
 * the master key) and put where the service under test looks: quota-service's {@code access_key} table
 * ({@link #inDatabase}) or the credentials topic that admission- and topology-service read ({@link #onTopic}).
 * Every {@code @QuarkusTest} of this JVM gets {@link #MASTER_KEY} through {@link KafkaTestResource}.
 */
public final class TestCredentials {

    /** This JVM's master key (random: no key is ever in the repository). */
    public static final String MASTER_KEY = SecretBox.newMasterKey();
    public static final String MASTER_KEY_PROPERTY = "taskgov.auth.master-key";

    private static final SecretBox BOX = SecretBox.of(MASTER_KEY);

    /** A key as a client uses it. */
    public record Key(String accessKeyId, String secret, String principal, List<String> roles) {
    }

    private TestCredentials() {
    }

    /** A new key (not stored anywhere): for the "unknown key" cases, or to store by hand. */
    public static Key newKey(String principal, String... roles) {
        Arrays.stream(roles).forEach(Role::parse);
        return new Key(AccessKey.newKeyId(), AccessKey.newSecret(), principal, List.of(roles));
    }

    /** A key stored in quota-service's database (its Flyway migrations must have run: start the service first). */
    public static Key inDatabase(String principal, String... roles) {
        Key key = newKey(principal, roles);
        DatabaseAddress db = SharedPostgres.address();
        try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.username(), db.password());
             PreparedStatement insert = c.prepareStatement("insert into access_key (access_key_id, principal, roles, "
                     + "secret_ciphertext, created_at, created_by) values (?, ?, ?, ?, ?, 'test-support')")) {
            insert.setString(1, key.accessKeyId());
            insert.setString(2, principal);
            insert.setString(3, String.join(" ", roles));
            insert.setString(4, BOX.encrypt(key.accessKeyId(), principal, List.of(roles), key.secret()));
            insert.setTimestamp(5, Timestamp.from(Instant.now()));
            insert.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("could not store a test access key (has quota-service migrated the database?)", e);
        }
        return key;
    }

    /** A key published on the default credentials topic, as quota-service publishes it. */
    public static Key onTopic(String principal, String... roles) {
        return onTopicNamed(TopicCatalog.CREDENTIALS.defaultName(), principal, roles);
    }

    /**
     * A key published on this credentials topic, as the administrator (the default topic's writer is quota-service,
     * a renamed one no grant names).
     */
    public static Key onTopicNamed(String topic, String principal, String... roles) {
        Key key = newKey(principal, roles);
        AccessKey record = new AccessKey(key.accessKeyId(), principal, List.of(roles), BOX.encrypt(key.accessKeyId(), principal, List.of(roles), key.secret()));
        Properties p = new Properties();
        p.putAll(SharedKafka.adminClientProperties());
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
            producer.send(new ProducerRecord<>(topic, key.accessKeyId(), record.toJson())).get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("could not publish a test access key to " + topic, e);
        }
        return key;
    }

    /**
     * Sends one HTTP request signed with this key (SigV4, as the CLI signs), or unsigned when {@code key} is null;
     * {@code headers} are name, value pairs.
     */
    public static java.net.http.HttpResponse<String> send(Key key, String method, java.net.URI uri, String body,
                                                           String... headers) {
        return send(request(key == null ? null : new dev.taskgov.client.support.auth.RequestSigner(key.accessKeyId(), key.secret()),
                method, uri, body, headers));
    }

    /**
     * One HTTP request signed by this signer (its key, its clock), or unsigned when {@code signer} is null; send it
     * twice to replay it. {@code headers} are name, value pairs, signed too.
     */
    public static java.net.http.HttpRequest request(dev.taskgov.client.support.auth.RequestSigner signer, String method,
                                                    java.net.URI uri, String body, String... headers) {
        byte[] bytes = body == null ? new byte[0] : body.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        java.util.Map<String, String> given = new java.util.LinkedHashMap<>();
        for (int i = 0; i + 1 < headers.length; i += 2) {
            given.put(headers[i], headers[i + 1]);
        }
        java.net.http.HttpRequest.Builder b = java.net.http.HttpRequest.newBuilder(uri)
                .method(method, body == null ? java.net.http.HttpRequest.BodyPublishers.noBody()
                        : java.net.http.HttpRequest.BodyPublishers.ofByteArray(bytes));
        (signer == null ? given : signer.sign(method, uri, given, bytes)).forEach(b::header);
        return b.build();
    }

    /** Sends a request (as built by {@link #request}) and answers the response. */
    public static java.net.http.HttpResponse<String> send(java.net.http.HttpRequest request) {
        try {
            return HTTP.send(request, java.net.http.HttpResponse.BodyHandlers.ofString());
        } catch (java.io.IOException e) {
            throw new IllegalStateException(request.method() + " " + request.uri() + " failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static final java.net.http.HttpClient HTTP = java.net.http.HttpClient.newHttpClient();
}
