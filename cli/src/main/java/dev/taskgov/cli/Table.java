package dev.taskgov.cli;

import dev.taskgov.core.auth.SafeText;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A kubectl-style table: upper-case headers, columns padded to their widest cell, three spaces apart. Every cell is
 * printed escaped ({@link SafeText}): cells carry text from callers (audit records, messages, names), and a newline or
 * an ANSI escape in one must not forge a row or rewrite the screen.
 *
 * <p>By default a line fits {@link #WIDTH} columns: the free-text columns a command marks ({@link #cut}: messages,
 * targets, resource lists) are narrowed until it does, each long cell cut and ended with {@link #ELLIPSIS}, or
 * ({@link #wrapped}) continued on the next lines under its column, nothing lost. Identifiers (names, ids, clusters) are
 * never shortened: a line holding only ids may stay longer. {@link #whole} ({@code -o wide}) prints every cell whole.
 */
final class Table {

    /** The width a default table fits. */
    static final int WIDTH = 120;

    /** What ends a cut cell. */
    static final String ELLIPSIS = "...";

    /** A narrowed free-text column keeps at least this many characters (or its header's). */
    private static final int MIN_TEXT = 12;

    private static final int GAP = 3;

    private final List<String> headers;
    private final List<List<String>> rows = new ArrayList<>();
    private final Set<Integer> cut = new HashSet<>();
    private final Set<Integer> wrapped = new HashSet<>();
    private boolean whole;

    Table(String... headers) {
        this.headers = List.of(headers);
    }

    /** These columns (by header) hold free text, cut with an ellipsis to fit {@link #WIDTH}. */
    Table cut(String... columns) {
        for (String c : columns) column(c).ifPresent(cut::add);
        return this;
    }

    /** These columns (by header) hold free text, wrapped onto further lines to fit {@link #WIDTH}. */
    Table wrapped(String... columns) {
        for (String c : columns) column(c).ifPresent(wrapped::add);
        return this;
    }

    /** Whether every cell is printed whole, however long the lines ({@code -o wide}). */
    Table whole(boolean whole) {
        this.whole = whole;
        return this;
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
        if (!whole) fit(width);
        line(out, headers, width);
        for (List<String> r : rows) {
            List<List<String>> pieces = new ArrayList<>();
            int lines = 1;
            for (int i = 0; i < r.size(); i++) {
                String c = r.get(i);
                List<String> p = c.length() <= width[i] ? List.of(c)
                        : wrapped.contains(i) ? wrap(c, width[i]) : List.of(c.substring(0, width[i] - ELLIPSIS.length()) + ELLIPSIS);
                pieces.add(p);
                lines = Math.max(lines, p.size());
            }
            for (int l = 0; l < lines; l++) {
                List<String> cells = new ArrayList<>();
                for (List<String> p : pieces) cells.add(l < p.size() ? p.get(l) : "");
                line(out, cells, width);
            }
        }
    }

    /**
     * Narrows the free-text columns to one common cap, the widest it can be for a line to fit {@link #WIDTH} (a column
     * narrower than the cap keeps its width, none goes below its minimum), so that they share what the other columns
     * leave. The last column is not padded, but its widest cell still makes the longest line.
     */
    private void fit(int[] width) {
        Set<Integer> text = new HashSet<>(cut);
        text.addAll(wrapped);
        if (text.isEmpty()) return;
        int fixed = GAP * (width.length - 1);
        for (int i = 0; i < width.length; i++) if (!text.contains(i)) fixed += width[i];
        int cap = 0;
        for (int i : text) cap = Math.max(cap, width[i]);
        while (cap > 0 && fixed + capped(width, text, cap) > WIDTH) cap--;
        for (int i : text) width[i] = Math.min(width[i], Math.max(cap, min(i)));
    }

    private int capped(int[] width, Set<Integer> text, int cap) {
        int sum = 0;
        for (int i : text) sum += Math.min(width[i], Math.max(cap, min(i)));
        return sum;
    }

    private int min(int column) {
        return Math.max(MIN_TEXT, headers.get(column).length());
    }

    /** {@code text} in pieces of at most {@code width}, broken after a space where there is one. */
    static List<String> wrap(String text, int width) {
        List<String> pieces = new ArrayList<>();
        String rest = text;
        while (rest.length() > width) {
            int at = rest.lastIndexOf(' ', width);
            if (at <= 0) at = width;
            pieces.add(rest.substring(0, at).stripTrailing());
            rest = rest.substring(at).stripLeading();
        }
        if (!rest.isEmpty()) pieces.add(rest);
        return pieces;
    }

    private java.util.Optional<Integer> column(String header) {
        int i = headers.indexOf(header);
        return i < 0 ? java.util.Optional.empty() : java.util.Optional.of(i);
    }

    private static void line(PrintWriter out, List<String> cells, int[] width) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < cells.size(); i++) {
            String c = cells.get(i);
            sb.append(c);
            if (i < cells.size() - 1) sb.append(" ".repeat(Math.max(0, width[i] - c.length()) + GAP));
        }
        out.println(sb.toString().stripTrailing());
    }

    static String[] of(String... s) {
        return Arrays.copyOf(s, s.length);
    }
}
