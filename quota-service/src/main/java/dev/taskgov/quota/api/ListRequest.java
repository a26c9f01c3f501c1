package dev.taskgov.quota.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taskgov.quota.api.Enums.SortOrder;
import dev.taskgov.quota.api.Enums.Status;
import io.quarkus.hibernate.orm.panache.PanacheQuery;
import io.quarkus.panache.common.Parameters;
import io.quarkus.panache.common.Sort;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * What the List calls of this service share (ListComputeQuotas, ListClusterSchedulerConfigs): the
 * filters {@code CreatedAfter}, {@code CreatedBefore}, {@code NameContains}, {@code Status} and
 * {@code ClusterArn} as a query over the entity columns, the {@code SortOrder} (newest first by
 * default, ties by id), the page, and the response with its summaries and {@code NextToken}.
 *
 * @param where  the filter, or null when there is none
 * @param params the filter's parameters
 */
public record ListRequest(String where, Parameters params, Sort.Direction direction, Paging paging) {

    /** Reads the shared members (the caller checks first that the request has no unknown member). */
    public static ListRequest parse(JsonNode request) {
        Instant after = RequestFields.optionalTimestamp(request, "CreatedAfter");
        Instant before = RequestFields.optionalTimestamp(request, "CreatedBefore");
        String nameContains = RequestFields.optionalString(request, "NameContains", null, 63);
        Status status = RequestFields.optionalEnum(request, "Status", Status.class);
        String clusterArn = RequestFields.optionalString(request, "ClusterArn", RequestFields.CLUSTER_ARN, 256);
        SortOrder order = RequestFields.optionalEnum(request, "SortOrder", SortOrder.class);
        Paging paging = Paging.from(request);

        List<String> where = new ArrayList<>();
        Parameters params = new Parameters();
        if (after != null) {
            where.add("createdAt > :after");
            params.and("after", after);
        }
        if (before != null) {
            where.add("createdAt < :before");
            params.and("before", before);
        }
        if (nameContains != null) {
            where.add("locate(:name, name) > 0");
            params.and("name", nameContains);
        }
        if (status != null) {
            where.add("status = :status");
            params.and("status", status.name());
        }
        if (clusterArn != null) {
            where.add("clusterArn = :cluster");
            params.and("cluster", clusterArn);
        }
        Sort.Direction direction = order == SortOrder.Ascending ? Sort.Direction.Ascending : Sort.Direction.Descending;
        return new ListRequest(where.isEmpty() ? null : String.join(" and ", where), params, direction, paging);
    }

    /** The same request narrowed to rows whose {@code column} is one of {@code values} (a team key's own quota). */
    public ListRequest restrictedTo(String column, java.util.Collection<String> values) {
        Parameters p = new Parameters();
        params.map().forEach(p::and);
        p.and("restricted", values);
        String clause = column + " in :restricted";
        return new ListRequest(where == null ? clause : where + " and " + clause, p, direction, paging);
    }

    /** Sorted by the column, then by id, both in the requested order. */
    public Sort sort(String column) {
        return Sort.by(column, direction).and("id", direction);
    }

    /**
     * The response for the rows {@code query} selects (built from {@link #where}, {@link #params} and {@link #sort}):
     * this request's page of them, as {@link #response} summarizes their documents.
     */
    public ObjectNode page(PanacheQuery<? extends VersionedResourceEntity> query, String listMember, List<String> members) {
        long total = query.count();
        List<? extends VersionedResourceEntity> rows = query.range(paging.offset(), paging.offset() + paging.maxResults() - 1).list();
        return response(listMember, rows.stream().map(e -> e.documentJson).toList(), members, total);
    }

    /**
     * The response: under {@code listMember} one summary per stored document of the page (only the
     * {@code members} it has), and {@code NextToken} when {@code total} goes beyond the page.
     */
    public ObjectNode response(String listMember, List<String> documentsJson, List<String> members, long total) {
        ArrayNode summaries = AwsJson.NODES.arrayNode();
        for (String json : documentsJson) {
            ObjectNode doc = AwsJson.parse(json);
            ObjectNode summary = AwsJson.object();
            for (String member : members) {
                if (doc.has(member)) {
                    summary.set(member, doc.get(member));
                }
            }
            summaries.add(summary);
        }
        ObjectNode response = AwsJson.object();
        response.set(listMember, summaries);
        String next = paging.nextToken(documentsJson.size(), total);
        if (next != null) {
            response.put("NextToken", next);
        }
        return response;
    }
}
