package dev.taskgov.cli;

import dev.taskgov.core.auth.SafeText;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A kubectl-style table: upper-case headers, columns padded to their widest cell, three spaces apart. Every cell is
 * printed escaped ({@link SafeText}): cells carry text from callers (audit records, messages, names), and a newline or
 * an ANSI escape in one must not forge a row or rewrite the screen.
 */
final class Table {

    private final List<String> headers;
    private final List<List<String>> rows = new ArrayList<>();

    Table(String... headers) {
        this.headers = List.of(headers);
    }

    Table row(Object... cells) {
        List<String> r = new ArrayList<>();
        for (Object c : cells) r.add(c == null || c.toString().isEmpty() ? "<none>" : SafeText.escape(c.toString()));
        rows.add(r);
        return this;
    }

    boolean isEmpty() {
        return rows.isEmpty();
    }

    void print(PrintWriter out) {
        int[] width = new int[headers.size()];
        for (int i = 0; i < width.length; i++) width[i] = headers.get(i).length();
        for (List<String> r : rows) for (int i = 0; i < width.length; i++) width[i] = Math.max(width[i], r.get(i).length());
        line(out, headers, width);
        for (List<String> r : rows) line(out, r, width);
    }

    private static void line(PrintWriter out, List<String> cells, int[] width) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < cells.size(); i++) {
            String c = cells.get(i);
            sb.append(c);
            if (i < cells.size() - 1) sb.append(" ".repeat(width[i] - c.length() + 3));
        }
        out.println(sb.toString().stripTrailing());
    }

    static String[] of(String... s) {
        return Arrays.copyOf(s, s.length);
    }
}
