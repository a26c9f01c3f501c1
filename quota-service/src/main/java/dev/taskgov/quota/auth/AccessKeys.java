package dev.taskgov.quota.auth;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taskgov.core.auth.AccessKey;
import dev.taskgov.core.auth.Principal;
import dev.taskgov.core.auth.Role;
import dev.taskgov.core.auth.SecretBox;
import dev.taskgov.quota.api.AwsJson;
import dev.taskgov.quota.config.QuotaServiceConfig;
import dev.taskgov.quota.outbox.QuotaTopicOutbox;
import dev.taskgov.service.support.auth.CredentialLookup;
import dev.taskgov.client.support.auth.ProfileFile;
import org.jboss.logging.Logger;

import java.nio.file.Path;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.panache.common.Sort;
import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import java.time.Clock;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The access keys: created with a fresh id and secret (the secret is shown once, stored encrypted), listed without
 * secrets, revoked. Every change is also written, through the outbox and in the same transaction, to the compacted
 * credentials topic that admission- and topology-service verify requests with (tombstone on revoke).
 */
@ApplicationScoped
public class AccessKeys implements CredentialLookup {

    private static final Logger LOG = Logger.getLogger(AccessKeys.class);

    @Inject
    QuotaServiceConfig config;

    @Inject
    QuotaTopicOutbox outbox;

    @Inject
    Clock clock;

    private SecretBox box;

    /** A new key: its id and the secret, which is never shown again. */
    public record Created(String accessKeyId, String secret, String principal, List<String> roles) {
    }

    @PostConstruct
    void loadMasterKey() {
        box = config.auth().secretBox();
    }

    void onStart(@Observes StartupEvent start) {
        // The credentials topic may have lost records (recreated, retention); it is compacted, so sending every
        // active key again costs a duplicate at most.
        QuarkusTransaction.requiringNew().run(() -> {
            for (AccessKeyEntity e : AccessKeyEntity.<AccessKeyEntity>list("revokedAt is null", Sort.by("createdAt"))) {
                resealIfKeyIdOnly(e);
                publish(e);
            }
        });
        config.auth().bootstrapProfile().ifPresent(this::bootstrapAdmin);
    }

    /**
     * A key stored before secrets were sealed to their principal and roles is sealed to them now, by the owner of the
     * keys, so that an upgrade leaves every key working. Its principal and roles are taken as they stand in the table,
     * so each one is logged for the operator to compare with the keys they made; from now on a change to them in the
     * table makes the key unusable. A key whose secret does not decrypt at all is left as it is (and keeps failing).
     */
    boolean resealIfKeyIdOnly(AccessKeyEntity e) {
        if (SecretBox.isBound(e.secretCiphertext)) {
            return false;
        }
        String secret;
        try {
            secret = box.decryptKeyIdOnly(e.accessKeyId, e.secretCiphertext);
        } catch (IllegalStateException wrongMasterKey) {
            LOG.warnf("access key %s: %s; not re-sealed", e.accessKeyId, wrongMasterKey.getMessage());
            return false;
        }
        e.secretCiphertext = box.encrypt(e.accessKeyId, e.principal, e.roleList(), secret);
        LOG.warnf("access key %s: re-sealed its secret to principal '%s' and roles %s as stored (it was sealed to its"
                + " key id only); if these are not the roles it was given, revoke it", e.accessKeyId, e.principal, e.roleList());
        return true;
    }

    /** Re-seals every active key still sealed to its key id only (as at start) and publishes it; answers how many. */
    @Transactional
    public int resealKeyIdOnlyKeys() {
        int resealed = 0;
        for (AccessKeyEntity e : AccessKeyEntity.<AccessKeyEntity>list("revokedAt is null", Sort.by("createdAt"))) {
            if (resealIfKeyIdOnly(e)) {
                publish(e);
                resealed++;
            }
        }
        return resealed;
    }

    /**
     * The first admin key, so that a new installation can be administered at all: made only while no active admin
     * key exists, its secret written to the profile file (readable by its owner only) and nowhere else.
     */
    void bootstrapAdmin(String profileFile) {
        if (anyActiveAdmin()) {
            return;
        }
        Created admin = create("admin", List.of("admin"), "first admin key, made on first start", Caller.SYSTEM);
        ProfileFile.write(Path.of(profileFile), new ProfileFile.Credentials("admin", admin.accessKeyId(), admin.secret()));
        LOG.infof("no admin key existed: made %s and wrote it as profile [admin] to %s", admin.accessKeyId(),
                Path.of(profileFile).toAbsolutePath());
    }

    /** Creates a key for the principal with these roles; refuses a bad principal name or role naming the rule. */
    @Transactional
    public Created create(String principal, List<String> roles, String description, String createdBy) {
        if (principal == null || !principal.matches("[A-Za-z0-9][-A-Za-z0-9_.@]{0,127}")) {
            throw new IllegalArgumentException("principal: required, 1-128 characters of letters, digits, - _ . @, was '"
                    + principal + "'");
        }
        if (roles == null || roles.isEmpty()) {
            throw new IllegalArgumentException("roles: at least one of admin, viewer, team:<name>");
        }
        Set<String> canonical = new LinkedHashSet<>();
        for (String r : roles) {
            canonical.add(Role.parse(r).toString());
        }
        if (description != null && description.length() > 256) {
            throw new IllegalArgumentException("description: at most 256 characters, was " + description.length());
        }
        AccessKeyEntity e = new AccessKeyEntity();
        e.accessKeyId = AccessKey.newKeyId();
        String secret = AccessKey.newSecret();
        e.principal = principal;
        e.roles = String.join(" ", canonical);
        e.secretCiphertext = box.encrypt(e.accessKeyId, principal, List.copyOf(canonical), secret);
        e.description = description;
        e.createdAt = clock.instant();
        e.createdBy = createdBy;
        e.persist();
        publish(e);
        return new Created(e.accessKeyId, secret, principal, List.copyOf(canonical));
    }

    /** Revokes a key at once (the HTTP services drop it as soon as its tombstone arrives). */
    @Transactional
    public AccessKeyEntity revoke(String accessKeyId, String revokedBy) {
        AccessKeyEntity e = AccessKeyEntity.findById(accessKeyId);
        if (e == null) {
            throw new java.util.NoSuchElementException("accessKeyId: no access key " + accessKeyId);
        }
        if (e.active()) {
            e.revokedAt = clock.instant();
            e.revokedBy = revokedBy;
            outbox.accessKeyRevoked(e.accessKeyId);
        }
        return e;
    }

    /** Every key (revoked ones too), oldest first, without secrets. */
    @Transactional
    public List<AccessKeyEntity> list() {
        return AccessKeyEntity.listAll(Sort.by("createdAt").and("accessKeyId"));
    }

    /** Whether any active key carries the admin role (the local runtime's first start makes one). */
    @Transactional
    public boolean anyActiveAdmin() {
        return AccessKeyEntity.<AccessKeyEntity>list("revokedAt is null").stream()
                .anyMatch(e -> e.roleList().contains("admin"));
    }

    @Override
    @Transactional
    public Optional<Found> find(String accessKeyId) {
        AccessKeyEntity e = AccessKeyEntity.findById(accessKeyId);
        if (e == null || !e.active()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new Found(Principal.of(e.principal, e.roleList()),
                    box.decrypt(e.accessKeyId, e.principal, e.roleList(), e.secretCiphertext)));
        } catch (IllegalStateException unsealed) {
            // Principal or roles changed in the table (or another master key): the key is refused, never trusted.
            LOG.warnf("access key %s refused: %s", accessKeyId, unsealed.getMessage());
            return Optional.empty();
        }
    }

    /** A key as {@code taskgov credentials list} shows it (no secret). */
    public static ObjectNode describe(AccessKeyEntity e) {
        ObjectNode n = AwsJson.object();
        n.put("accessKeyId", e.accessKeyId);
        n.put("principal", e.principal);
        ArrayNode roles = n.putArray("roles");
        e.roleList().forEach(roles::add);
        if (e.description != null) {
            n.put("description", e.description);
        }
        n.put("createdAt", e.createdAt.toString());
        n.put("createdBy", e.createdBy);
        n.put("status", e.active() ? "Active" : "Revoked");
        if (e.revokedAt != null) {
            n.put("revokedAt", e.revokedAt.toString());
            n.put("revokedBy", e.revokedBy);
        }
        return n;
    }

    private void publish(AccessKeyEntity e) {
        AccessKey record = new AccessKey(e.accessKeyId, e.principal, e.roleList(), e.secretCiphertext);
        outbox.accessKeyChanged(e.accessKeyId, record.toJson());
    }
}
