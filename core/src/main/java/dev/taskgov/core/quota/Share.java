package dev.taskgov.core.quota;

/**
 * A weighted share as an exact fraction: borrowed / (lendable x weight). A zero denominator with a
 * positive numerator is infinite (weight 0 while borrowing). Compared by cross-multiplication,
 * never rounded.
 */
public record Share(long numerator, long denominator) implements Comparable<Share> {

    public static final Share ZERO = new Share(0, 1);
    public static final Share INFINITE = new Share(1, 0);

    public boolean isInfinite() {
        return denominator == 0 && numerator > 0;
    }

    @Override
    public int compareTo(Share o) {
        if (isInfinite() || o.isInfinite()) {
            return Boolean.compare(isInfinite(), o.isInfinite());
        }
        if (denominator == o.denominator) {
            return Long.compare(numerator, o.numerator);
        }
        // exact 128-bit cross-multiplication; all parts are non-negative
        long hi1 = Math.multiplyHigh(numerator, o.denominator);
        long hi2 = Math.multiplyHigh(o.numerator, denominator);
        if (hi1 != hi2) {
            return Long.compare(hi1, hi2);
        }
        return Long.compareUnsigned(numerator * o.denominator, o.numerator * denominator);
    }

    public static Share max(Share a, Share b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    /** For messages: a decimal with 4 digits, or "infinite". */
    @Override
    public String toString() {
        if (isInfinite()) return "infinite";
        if (numerator == 0) return "0";
        return new java.math.BigDecimal(numerator).divide(new java.math.BigDecimal(denominator), 4, java.math.RoundingMode.HALF_UP)
                .stripTrailingZeros().toPlainString();
    }
}
