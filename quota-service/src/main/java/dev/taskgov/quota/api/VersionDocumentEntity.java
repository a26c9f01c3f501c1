package dev.taskgov.quota.api;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.MappedSuperclass;

/**
 * The Describe document of one past or current version of a versioned resource, with who made it; each kind's table
 * names the column of {@link #resourceId}. {@link VersionedResources#save} writes one per change.
 */
@MappedSuperclass
public abstract class VersionDocumentEntity extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    /** The id of the resource this is a version of. */
    public String resourceId;

    @Column(nullable = false)
    public int version;

    @Column(name = "document_json", nullable = false, columnDefinition = "text")
    public String documentJson;

    /** The principal whose key signed the change (V16; null for versions written before). */
    @Column(name = "author")
    public String author;
}
