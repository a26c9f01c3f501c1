package dev.taskgov.quota.schedulerconfig;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.util.Optional;

/** The Describe document of one version of a cluster scheduler config. */
@Entity
@Table(name = "cluster_scheduler_config_version")
public class SchedulerConfigVersionEntity extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(name = "config_id", nullable = false)
    public String configId;

    @Column(nullable = false)
    public int version;

    @Column(name = "document_json", nullable = false, columnDefinition = "text")
    public String documentJson;

    /** The principal whose key signed the change (V16; null for versions written before). */
    @Column(name = "author")
    public String author;

    public static SchedulerConfigVersionEntity of(String configId, int version, String documentJson, String author) {
        SchedulerConfigVersionEntity e = new SchedulerConfigVersionEntity();
        e.configId = configId;
        e.version = version;
        e.documentJson = documentJson;
        e.author = author;
        return e;
    }

    public static Optional<SchedulerConfigVersionEntity> find(String configId, int version) {
        return find("configId = ?1 and version = ?2", configId, version).firstResultOptional();
    }
}
