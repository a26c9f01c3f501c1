package dev.taskgov.cli;

import io.fabric8.kubernetes.api.model.Quantity;

import java.math.BigDecimal;

/**
 * Flag values that are Kubernetes resource quantities ({@code 500m}, {@code 100}, {@code 200Mi}, {@code 2G}) in
 * taskgov's JSON units; parsed by fabric8's {@link Quantity}, as the manifests translator parses a manifest's.
 */
final class Quantities {

    private static final BigDecimal GIB = BigDecimal.valueOf(1L << 30);

    private Quantities() {
    }

    /** A non-negative quantity in its base unit (cores, bytes, devices). */
    static BigDecimal parse(String field, String text) {
        BigDecimal v;
        try {
            v = text == null || text.isBlank() ? null : new Quantity(text.strip()).getNumericalAmount();
        } catch (IllegalArgumentException | ArithmeticException e) {
            v = null;
        }
        if (v == null || v.signum() < 0) {
            throw CliException.invalid(field + ": '" + text + "' is not a Kubernetes quantity (e.g. 4, 500m, 200Mi, 32Gi)");
        }
        return normal(v);
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
    /**
     * A number of GiB, as the hyp CLI's {@code --memory} and {@code --memory-limit} take it (e.g. 32 or 0.5): a
     * Kubernetes quantity with a unit (32Gi) is refused naming the rule, since the two flags are compared and the
     * manifest writes the number with {@code Gi}.
     */
    static BigDecimal gib(String field, String text) {
        BigDecimal v;
        try {
            v = text == null ? null : new BigDecimal(text.strip());
        } catch (NumberFormatException e) {
            v = null;
        }
        if (v == null || v.signum() < 0) {
            throw CliException.invalid(field + ": must be a number of GiB, as hyp's " + field + " takes it (e.g. 32 or 0.5), was '"
                    + text + "'");
        }
        return v;
    }

    static BigDecimal whole(String field, String text) {
        BigDecimal v = parse(field, text);
        if (v.signum() < 0 || v.stripTrailingZeros().scale() > 0) {
            throw CliException.invalid(field + ": accelerators are whole devices, was '" + text + "'");
        }
        return v.setScale(0);
    }
}
