package dev.taskgov.local;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import javax.security.auth.callback.Callback;
import javax.security.auth.callback.NameCallback;
import javax.security.auth.callback.UnsupportedCallbackException;
import javax.security.auth.login.AppConfigurationEntry;

import org.apache.kafka.common.security.auth.AuthenticateCallbackHandler;
import org.apache.kafka.common.security.plain.PlainAuthenticateCallback;

/**
 * Checks SASL/PLAIN logins on the broker against the broker directory's credentials file ({@link SecureBroker}),
 * read at each login so that a team added while the broker runs can log in at once. The principals and passwords
 * are those of SCRAM, so the same ACLs apply.
 *
 * <p>Why PLAIN at all: librdkafka before 2.6.1 (Debian bookworm's, which its {@code kcat} uses) builds a SCRAM
 * proof that Kafka 4 rejects, so such clients log in with PLAIN. Java clients use SCRAM. The option
 * {@code credentials_file} of the listener's PLAIN JAAS entry names the file.
 */
public final class CredentialsFilePlainCallback implements AuthenticateCallbackHandler {

    private Path credentialsFile;

    @Override
    public void configure(Map<String, ?> configs, String saslMechanism, List<AppConfigurationEntry> jaasConfigEntries) {
        for (AppConfigurationEntry entry : jaasConfigEntries) {
            Object file = entry.getOptions().get("credentials_file");
            if (file != null) credentialsFile = Path.of(file.toString());
        }
        if (credentialsFile == null) {
            throw new IllegalArgumentException("the PLAIN JAAS entry needs the option credentials_file");
        }
    }

    @Override
    public void handle(Callback[] callbacks) throws IOException, UnsupportedCallbackException {
        String username = null;
        for (Callback callback : callbacks) {
            if (callback instanceof NameCallback name) {
                username = name.getDefaultName();
            } else if (callback instanceof PlainAuthenticateCallback plain) {
                Properties credentials = new Properties();
                try (Reader in = Files.newBufferedReader(credentialsFile, StandardCharsets.UTF_8)) {
                    credentials.load(in);
                }
                String expected = username == null ? null : credentials.getProperty(username);
                plain.authenticated(expected != null && MessageDigest.isEqual(expected.getBytes(StandardCharsets.UTF_8),
                        new String(plain.password()).getBytes(StandardCharsets.UTF_8)));
            } else {
                throw new UnsupportedCallbackException(callback);
            }
        }
    }

    @Override
    public void close() {
    }
}
