package dev.taskgov.service.support.auth;

import dev.taskgov.service.support.KafkaClientSecurity;

import java.time.Clock;
import java.util.Properties;

/**
 * What a plain HTTP service needs to check its callers, built from its Kafka client settings (its own login, as
 * every client of the service): the credentials topic reader, the audit producer and the guard over both. Close it
 * on shutdown.
 */
public final class HttpAccess implements AutoCloseable {

    private final CredentialDirectory credentials;
    private final AuditProducer audit;
    private final AccessGuard guard;

    public HttpAccess(String service, String bootstrapServers, String credentialsTopic, String auditTopic, AuthConfig auth) {
        Properties client = KafkaClientSecurity.client(bootstrapServers, service + "-access");
        credentials = new CredentialDirectory(client, credentialsTopic, auth.secretBox()).start();
        audit = new AuditProducer(client, auditTopic, service);
        guard = new AccessGuard(new SigV4Verifier(credentials, Clock.systemUTC()), audit, service, Clock.systemUTC());
    }

    public AccessGuard guard() {
        return guard;
    }

    @Override
    public void close() {
        credentials.close();
        audit.close();
    }
}
