package dev.taskgov.service.support.auth;

import dev.taskgov.service.support.TopicsConfig;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Who may call a plain HTTP service's API (admission-service, topology-service): every request is SigV4-verified
 * against the access keys of the credentials topic, and each endpoint checks the principal's roles through
 * {@link #guard()} (docs/security.md). Such a service's {@code ApiAccess} bean ({@code @ApplicationScoped @Startup})
 * extends it and only says which service it is and where its settings are; the reader and audit producer
 * ({@link HttpAccess}) open when the bean starts and close when it is destroyed, and {@link AuthFailureMapper}
 * answers the refusals its endpoints throw. The service indexes service-support ({@code quarkus.index-dependency}
 * in its {@code application.properties}) so that Quarkus sees this class's callbacks and the mapper.
 */
public abstract class HttpApiAccess {

    /**
     * @param service the service's name: its audit records' source and its Kafka client id
     * @param topics  where the credentials and the audit trail are
     * @param auth    the master key that decrypts the access keys' secrets
     */
    public record Settings(String service, TopicsConfig topics, AuthConfig auth) {
    }

    private HttpAccess access;

    /** This service's settings, read when the bean starts. */
    protected abstract Settings settings();

    @PostConstruct
    void open() {
        Settings s = settings();
        String bootstrapServers = ConfigProvider.getConfig().getValue("kafka.bootstrap.servers", String.class);
        access = new HttpAccess(s.service(), bootstrapServers, s.topics().credentials(), s.topics().audit(), s.auth());
    }

    @PreDestroy
    void close() {
        access.close();
    }

    public AccessGuard guard() {
        return access.guard();
    }
}
