package dev.taskgov.cli;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Samples of the Prometheus text exposition format ({@code name{label="value",...} 1.0 [timestamp]}),
 * as the services' {@code /q/metrics} serve them; comments and non-finite values are skipped.
 */
final class PrometheusText {

    record Sample(String name, Map<String, String> labels, BigDecimal value) {
    }

    private PrometheusText() {
    }

    /** The samples whose metric name is one of {@code names}. */
    static List<Sample> parse(String text, java.util.Set<String> names) {
        List<Sample> out = new ArrayList<>();
        for (String line : text.split("\n")) {
            String l = line.strip();
            if (l.isEmpty() || l.startsWith("#")) continue;
            int brace = l.indexOf('{');
            int space = l.indexOf(' ');
            int nameEnd = brace >= 0 && (space < 0 || brace < space) ? brace : space;
            if (nameEnd <= 0) continue;
            String name = l.substring(0, nameEnd);
            if (!names.contains(name)) continue;
            Map<String, String> labels = new LinkedHashMap<>();
            int rest = nameEnd;
            if (nameEnd == brace) rest = labels(l, brace + 1, labels);
            String[] fields = l.substring(rest).strip().split("\\s+");
            try {
                out.add(new Sample(name, labels, new BigDecimal(fields[0])));
            } catch (NumberFormatException e) {
                // NaN and ±Inf have no place in a quota table
            }
        }
        return out;
    }

    /** Reads {@code k="v",...}} from {@code at}; returns the index after the closing brace. */
    private static int labels(String l, int at, Map<String, String> into) {
        int i = at;
        while (i < l.length() && l.charAt(i) != '}') {
            int eq = l.indexOf('=', i);
            String key = l.substring(i, eq).strip();
            StringBuilder value = new StringBuilder();
            int j = eq + 2; // past ="
            for (; j < l.length() && l.charAt(j) != '"'; j++) {
                char c = l.charAt(j);
                if (c == '\\' && j + 1 < l.length()) {
                    char next = l.charAt(++j);
                    value.append(next == 'n' ? '\n' : next);
                } else {
                    value.append(c);
                }
            }
            into.put(key, value.toString());
            i = j + 1;
            if (i < l.length() && l.charAt(i) == ',') i++;
        }
        return i + 1;
    }
}
