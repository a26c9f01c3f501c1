package dev.taskgov.quota.computequota;

import dev.taskgov.quota.api.VersionDocumentEntity;
import jakarta.persistence.AttributeOverride;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;

/** The Describe document of one past or current version of a compute quota. */
@Entity
@Table(name = "compute_quota_version")
@AttributeOverride(name = "resourceId", column = @Column(name = "quota_id", nullable = false))
public class ComputeQuotaVersionEntity extends VersionDocumentEntity {
}
