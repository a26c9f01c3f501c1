package dev.taskgov.core.events;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;

/**
 * An instant as ISO-8601 text, exactly as {@link Instant#toString} writes it and {@link Instant#parse} reads it, without
 * their formatter: every record the services write carries several instants (a workload's changelog record about a
 * dozen, every CloudEvent its {@code ce_time}), and going through {@code DateTimeFormatter} was a sixth of a busy
 * decider's CPU. Years 0000-9999 in UTC ({@code Z}) take the direct path; anything else (another year, an offset, a
 * leap second, a value out of range) is left to {@code Instant}'s own, so both the text and the refusals stay the JDK's.
 */
public final class InstantText {

    /** 0000-01-01T00:00:00Z and 9999-12-31T23:59:59Z: the instants whose year has four digits and no sign. */
    private static final long FIRST_SECOND = -62_167_219_200L;
    private static final long LAST_SECOND = 253_402_300_799L;
    private static final int SECONDS_PER_DAY = 86_400;
    /** Days from 0000-03-01 to 1970-01-01 (the civil calendar counted from March, so that February is last). */
    private static final long DAYS_0000_03_01_TO_EPOCH = 719_468;
    private static final long DAYS_PER_400_YEARS = 146_097;

    /** The most characters {@link #writeAscii} writes: {@code yyyy-MM-ddTHH:mm:ss.nnnnnnnnnZ}. */
    public static final int MAX_ASCII_LENGTH = 30;

    private InstantText() {
    }

    /** {@code instant.toString()}. */
    public static String format(Instant instant) {
        byte[] text = new byte[MAX_ASCII_LENGTH];
        int length = writeAscii(instant, text);
        return length < 0 ? instant.toString() : new String(text, 0, length, StandardCharsets.ISO_8859_1);
    }

    /** {@code instant.toString()} as ASCII bytes (what a Kafka header holds). */
    public static byte[] ascii(Instant instant) {
        byte[] text = new byte[MAX_ASCII_LENGTH];
        int length = writeAscii(instant, text);
        return length < 0 ? instant.toString().getBytes(StandardCharsets.US_ASCII) : Arrays.copyOf(text, length);
    }

    /**
     * Writes {@code instant.toString()} as ASCII into {@code into} (at least {@link #MAX_ASCII_LENGTH} long) from its
     * start, and answers how many bytes it wrote; -1, writing nothing, for an instant off the direct path (see the
     * class comment), whose text only {@code Instant.toString} gives. A record's encoder writes its instants this way,
     * into a buffer of its own, rather than making a string of each.
     */
    public static int writeAscii(Instant instant, byte[] into) {
        long epochSecond = instant.getEpochSecond();
        if (epochSecond < FIRST_SECOND || epochSecond > LAST_SECOND) return -1;
        long days = Math.floorDiv(epochSecond, SECONDS_PER_DAY);
        int secondOfDay = (int) Math.floorMod(epochSecond, SECONDS_PER_DAY);
        // the proleptic Gregorian date of a day number (H. Hinnant's days_from_civil, inverted)
        long z = days + DAYS_0000_03_01_TO_EPOCH;
        long era = Math.floorDiv(z, DAYS_PER_400_YEARS);
        int dayOfEra = (int) (z - era * DAYS_PER_400_YEARS);
        int yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146096) / 365;
        int dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
        int monthFromMarch = (5 * dayOfYear + 2) / 153;
        int day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1;
        int month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9;
        int year = (int) (yearOfEra + era * 400) + (month <= 2 ? 1 : 0);

        int nano = instant.getNano();
        int fractionDigits = nano == 0 ? 0 : nano % 1_000_000 == 0 ? 3 : nano % 1_000 == 0 ? 6 : 9;
        digits(into, 0, year, 4);
        into[4] = '-';
        digits(into, 5, month, 2);
        into[7] = '-';
        digits(into, 8, day, 2);
        into[10] = 'T';
        digits(into, 11, secondOfDay / 3600, 2);
        into[13] = ':';
        digits(into, 14, secondOfDay / 60 % 60, 2);
        into[16] = ':';
        digits(into, 17, secondOfDay % 60, 2);
        int at = 19;
        if (fractionDigits > 0) {
            into[at++] = '.';
            int fraction = fractionDigits == 3 ? nano / 1_000_000 : fractionDigits == 6 ? nano / 1_000 : nano;
            digits(into, at, fraction, fractionDigits);
            at += fractionDigits;
        }
        into[at++] = 'Z';
        return at;
    }

    /** {@code Instant.parse(text)}: the same instant, or the same {@code DateTimeParseException}. */
    public static Instant parse(CharSequence text) {
        Instant direct = parseUtc(text);
        return direct != null ? direct : Instant.parse(text);
    }

    /** The instant of {@code yyyy-MM-ddTHH:mm:ss[.f{1,9}]Z} with every field in range; null for anything else. */
    private static Instant parseUtc(CharSequence t) {
        int n = t.length();
        if (n < 20 || t.charAt(n - 1) != 'Z' || t.charAt(4) != '-' || t.charAt(7) != '-' || t.charAt(10) != 'T'
                || t.charAt(13) != ':' || t.charAt(16) != ':') {
            return null;
        }
        int year = number(t, 0, 4);
        int month = number(t, 5, 2);
        int day = number(t, 8, 2);
        int hour = number(t, 11, 2);
        int minute = number(t, 14, 2);
        int second = number(t, 17, 2);
        if (year < 0 || month < 1 || month > 12 || day < 1 || day > daysIn(year, month) || hour < 0 || hour > 23
                || minute < 0 || minute > 59 || second < 0 || second > 59) {
            return null;
        }
        int nano = 0;
        if (n > 20) {
            int digits = n - 21;
            if (t.charAt(19) != '.' || digits < 1 || digits > 9) return null;
            nano = number(t, 20, digits);
            if (nano < 0) return null;
            for (int i = digits; i < 9; i++) nano *= 10;
        }
        // days_from_civil: the day number of a proleptic Gregorian date
        int y = month <= 2 ? year - 1 : year;
        long era = Math.floorDiv(y, 400);
        int yearOfEra = (int) (y - era * 400);
        int dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
        int dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear;
        long days = era * DAYS_PER_400_YEARS + dayOfEra - DAYS_0000_03_01_TO_EPOCH;
        return Instant.ofEpochSecond(days * SECONDS_PER_DAY + hour * 3600L + minute * 60L + second, nano);
    }

    /** The decimal number of {@code count} ASCII digits from {@code from}; -1 if any is not a digit. */
    private static int number(CharSequence t, int from, int count) {
        int value = 0;
        for (int i = from; i < from + count; i++) {
            char c = t.charAt(i);
            if (c < '0' || c > '9') return -1;
            value = value * 10 + (c - '0');
        }
        return value;
    }

    private static int daysIn(int year, int month) {
        return switch (month) {
            case 2 -> year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28;
            case 4, 6, 9, 11 -> 30;
            default -> 31;
        };
    }

    private static void digits(byte[] into, int at, int value, int count) {
        for (int i = at + count - 1; i >= at; i--) {
            into[i] = (byte) ('0' + value % 10);
            value /= 10;
        }
    }
}
