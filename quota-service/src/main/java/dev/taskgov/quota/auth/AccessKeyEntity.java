package dev.taskgov.quota.auth;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;

/**
 * One access key (table {@code access_key}, migration V16); the secret only as ciphertext of the master key. Only the
 * revocation and the ciphertext (re-sealed once, see AccessKeys) ever change, so only they are in an UPDATE: the
 * service's database role may update no other column.
 */
@Entity
@Table(name = "access_key")
public class AccessKeyEntity extends PanacheEntityBase {

    @Id
    @Column(name = "access_key_id", updatable = false)
    public String accessKeyId;

    @Column(nullable = false, updatable = false)
    public String principal;

    /** Space-separated: {@code admin}, {@code viewer}, {@code team:<name>}. */
    @Column(nullable = false, updatable = false)
    public String roles;

    @Column(name = "secret_ciphertext", nullable = false, columnDefinition = "text")
    public String secretCiphertext;

    @Column(updatable = false)
    public String description;

    @Column(name = "created_at", nullable = false, updatable = false)
    public Instant createdAt;

    @Column(name = "created_by", nullable = false, updatable = false)
    public String createdBy;

    @Column(name = "revoked_at")
    public Instant revokedAt;

    @Column(name = "revoked_by")
    public String revokedBy;

    public List<String> roleList() {
        return Arrays.stream(roles.split(" ")).filter(r -> !r.isBlank()).toList();
    }

    public boolean active() {
        return revokedAt == null;
    }
}
