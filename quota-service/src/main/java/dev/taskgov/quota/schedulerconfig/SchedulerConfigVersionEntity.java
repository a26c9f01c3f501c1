package dev.taskgov.quota.schedulerconfig;

import dev.taskgov.quota.api.VersionDocumentEntity;
import jakarta.persistence.AttributeOverride;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;

/** The Describe document of one version of a cluster scheduler config. */
@Entity
@Table(name = "cluster_scheduler_config_version")
@AttributeOverride(name = "resourceId", column = @Column(name = "config_id", nullable = false))
public class SchedulerConfigVersionEntity extends VersionDocumentEntity {
}
