package dev.taskgov.quota.computequota;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.util.Optional;

/** The Describe document of one past or current version of a compute quota. */
@Entity
@Table(name = "compute_quota_version")
public class ComputeQuotaVersionEntity extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(name = "quota_id", nullable = false)
    public String quotaId;

    @Column(nullable = false)
    public int version;

    @Column(name = "document_json", nullable = false, columnDefinition = "text")
    public String documentJson;

    /** The principal whose key signed the change (V16; null for versions written before). */
    @Column(name = "author")
    public String author;

    public static ComputeQuotaVersionEntity of(String quotaId, int version, String documentJson, String author) {
        ComputeQuotaVersionEntity e = new ComputeQuotaVersionEntity();
        e.quotaId = quotaId;
        e.version = version;
        e.documentJson = documentJson;
        e.author = author;
        return e;
    }

    public static Optional<ComputeQuotaVersionEntity> find(String quotaId, int version) {
        return find("quotaId = ?1 and version = ?2", quotaId, version).firstResultOptional();
    }
}
