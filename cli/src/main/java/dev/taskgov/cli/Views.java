package dev.taskgov.cli;

import com.fasterxml.jackson.databind.JsonNode;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** Formatting shared by the table outputs: ages, amounts, placements. */
final class Views {
    private Views() {
    }

    /** kubectl's age: 45s, 3m12s, 2h5m, 3d4h. */
    static String age(String isoTime, Clock clock) {
        if (isoTime == null || isoTime.isBlank()) return null;
        try {
            Duration d = Duration.between(Instant.parse(isoTime), clock.instant());
            if (d.isNegative()) d = Duration.ZERO;
            long s = d.getSeconds();
            if (s < 120) return s + "s";
            if (s < 3600) return (s / 60) + "m" + (s % 60 == 0 ? "" : (s % 60) + "s");
            if (s < 86400) return (s / 3600) + "h" + ((s % 3600) / 60 == 0 ? "" : ((s % 3600) / 60) + "m");
            return (s / 86400) + "d" + ((s % 86400) / 3600 == 0 ? "" : ((s % 86400) / 3600) + "h");
        } catch (DateTimeParseException e) {
            return isoTime;
        }
    }

    /**
     * The age of a history entry; an entry that stands for repeated changes reads as kubectl shows repeated
     * events: {@code 2m (x5 over 5m)} (last seen 2m ago, five times since 5m ago).
     */
    static String eventAge(JsonNode entry, Clock clock) {
        String last = age(text(entry, "time"), clock);
        int count = entry.path("count").asInt(1);
        String first = text(entry, "firstTime");
        if (count <= 1 || last == null) return last;
        return last + " (x" + count + (first == null ? "" : " over " + age(first, clock)) + ")";
    }

    /** {"ml.p5.48xlarge": {"accelerators": 8}} as "ml.p5.48xlarge: 8 accelerators". */
    static String amounts(JsonNode byType) {
        if (byType == null || !byType.isObject() || byType.isEmpty()) return null;
        List<String> parts = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = byType.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            parts.add(e.getKey() + ": " + resources(e.getValue()));
        }
        return String.join("; ", parts);
    }

    /** {"accelerators": 8, "vcpu": 4} as "8 accelerators, 4 vCPU". */
    static String resources(JsonNode r) {
        List<String> parts = new ArrayList<>();
        if (r.hasNonNull("accelerators")) {
            String n = r.get("accelerators").asText();
            parts.add(n + (n.equals("1") ? " accelerator" : " accelerators"));
        }
        if (r.hasNonNull("vcpu")) parts.add(r.get("vcpu").asText() + " vCPU");
        if (r.hasNonNull("memoryGiB")) parts.add(r.get("memoryGiB").asText() + " GiB memory");
        r.path("partitions").fields().forEachRemaining(p -> parts.add(p.getValue().asText() + " " + p.getKey()));
        return parts.isEmpty() ? "nothing" : String.join(", ", parts);
    }

    /**
     * Accelerators with the accelerator partitions beside them, e.g. {@code "0 + 7 mig-1g.10gb"}: a team's
     * partitions are its accelerators in MIG mode, so a column of accelerators shows both.
     */
    static String acceleratorsAndPartitions(JsonNode r) {
        StringBuilder sb = new StringBuilder(figure(r, "accelerators") == null ? "0" : figure(r, "accelerators"));
        r.path("partitions").fields().forEachRemaining(p -> sb.append(" + ").append(figure(p.getValue())).append(' ').append(p.getKey()));
        return sb.toString();
    }

    /** One pod set's placement: "worker: 10 pods in network-node-layer-3=nn-b1-r2 on p5-b1r2h1×8, p5-b1r2h2×2". */
    static String placement(JsonNode podSet) {
        int pods = 0;
        List<String> nodes = new ArrayList<>();
        for (JsonNode n : podSet.path("nodes")) {
            pods += n.path("count").asInt();
            nodes.add(n.path("name").asText() + "×" + n.path("count").asInt());
        }
        StringBuilder sb = new StringBuilder(podSet.path("name").asText()).append(": ").append(pods).append(pods == 1 ? " pod" : " pods");
        JsonNode domain = podSet.path("domain");
        if (domain.isObject()) sb.append(" in ").append(domain.path("level").asText()).append('=').append(domain.path("value").asText());
        if (podSet.hasNonNull("instanceType")) sb.append(" (").append(podSet.get("instanceType").asText()).append(')');
        if (!nodes.isEmpty()) sb.append(" on ").append(String.join(", ", nodes));
        return sb.toString();
    }

    /** {@code Admitted=3,Pending=1}: a JSON object of numbers, in its order; "-" when empty. */
    static String counts(JsonNode byName) {
        if (byName == null || byName.isEmpty()) return "-";
        java.util.List<String> parts = new java.util.ArrayList<>();
        byName.fields().forEachRemaining(e -> parts.add(e.getKey() + "=" + e.getValue().asText()));
        return String.join(",", parts);
    }

    /**
     * An amount as a person reads it: whole as it is, a fraction to one decimal. What a team lends is its share of
     * what the cohort borrows, in proportion to what it leaves idle, so it is rarely whole ("14.108" prints "14.1").
     */
    static String figure(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? null : figure(v);
    }

    static String figure(JsonNode v) {
        if (!v.isNumber() || v.isIntegralNumber()) return v.asText();
        return java.math.BigDecimal.valueOf(v.doubleValue()).setScale(1, java.math.RoundingMode.HALF_UP).stripTrailingZeros().toPlainString();
    }

    static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }
}
