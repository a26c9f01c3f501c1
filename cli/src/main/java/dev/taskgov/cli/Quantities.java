package dev.taskgov.cli;

import java.math.BigDecimal;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Kubernetes resource quantities ({@code 500m}, {@code 100}, {@code 200Mi}, {@code 2G}) in taskgov's JSON units. */
final class Quantities {

    private static final Pattern QUANTITY = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)([a-zA-Z]*)");
    private static final BigDecimal GIB = BigDecimal.valueOf(1L << 30);
    private static final Map<String, BigDecimal> SUFFIX = Map.ofEntries(
            Map.entry("", BigDecimal.ONE),
            Map.entry("m", new BigDecimal("0.001")),
            Map.entry("k", new BigDecimal("1e3")),
            Map.entry("M", new BigDecimal("1e6")),
            Map.entry("G", new BigDecimal("1e9")),
            Map.entry("T", new BigDecimal("1e12")),
            Map.entry("P", new BigDecimal("1e15")),
            Map.entry("Ki", BigDecimal.valueOf(1L << 10)),
            Map.entry("Mi", BigDecimal.valueOf(1L << 20)),
            Map.entry("Gi", BigDecimal.valueOf(1L << 30)),
            Map.entry("Ti", BigDecimal.valueOf(1L << 40)),
            Map.entry("Pi", BigDecimal.valueOf(1L << 50)));

    private Quantities() {
    }

    /** A quantity in its base unit (cores, bytes, devices). */
    static BigDecimal parse(String field, String text) {
        Matcher m = QUANTITY.matcher(text == null ? "" : text.strip());
        BigDecimal factor = m.matches() ? SUFFIX.get(m.group(2)) : null;
        if (factor == null) {
            throw CliException.invalid(field + ": '" + text + "' is not a Kubernetes quantity (e.g. 4, 500m, 200Mi, 32Gi)");
        }
        return normal(new BigDecimal(m.group(1)).multiply(factor));
    }

    /** CPU cores: {@code 4}, {@code 0.5}, {@code 500m}. */
    static BigDecimal cpu(String field, String text) {
        return parse(field, text);
    }

    /** Memory in GiB: a plain number is GiB (the hyp CLI's unit); with a suffix it is a Kubernetes quantity. */
    static BigDecimal memoryGiB(String field, String text, boolean plainIsGiB) {
        String t = text == null ? "" : text.strip();
        if (plainIsGiB && t.matches("[0-9]+(\\.[0-9]+)?")) return normal(new BigDecimal(t));
        return normal(parse(field, t).divide(GIB));
    }

    /** Without trailing zeros, and never in exponent form ({@code 100}, not {@code 1E+2}). */
    static BigDecimal normal(BigDecimal v) {
        BigDecimal s = v.stripTrailingZeros();
        return s.scale() < 0 ? s.setScale(0) : s;
    }

    /** Whole accelerators. */
    static BigDecimal whole(String field, String text) {
        BigDecimal v = parse(field, text);
        if (v.signum() < 0 || v.stripTrailingZeros().scale() > 0) {
            throw CliException.invalid(field + ": accelerators are whole devices, was '" + text + "'");
        }
        return v.setScale(0);
    }
}
