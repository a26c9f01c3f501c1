package dev.taskgov.core.events;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link InstantText} against the JDK's own {@code Instant.toString} and {@code Instant.parse}, its oracle. */
class InstantTextTest {

    private static final long FIRST = Instant.parse("0000-01-01T00:00:00Z").getEpochSecond();
    private static final long LAST = Instant.parse("9999-12-31T23:59:59Z").getEpochSecond();

    @Test
    void writesWhatInstantToStringWritesForInstantsOfEveryKind() {
        List<Instant> instants = new ArrayList<>(List.of(Instant.EPOCH, Instant.MIN, Instant.MAX,
                Instant.parse("0000-01-01T00:00:00Z"), Instant.parse("0000-01-01T00:00:00Z").minusNanos(1),
                Instant.parse("9999-12-31T23:59:59.999999999Z"), Instant.parse("9999-12-31T23:59:59.999999999Z").plusNanos(1),
                Instant.parse("2000-02-29T12:00:00Z"), Instant.parse("1900-02-28T23:59:59Z"), Instant.parse("1969-12-31T23:59:59.5Z"),
                Instant.parse("2026-12-05T22:43:44.120Z"), Instant.parse("2026-12-05T22:43:44.000120Z"),
                Instant.parse("2026-12-05T22:43:44.000000120Z"), Instant.ofEpochSecond(-1, 999_999_999)));
        SplittableRandom random = new SplittableRandom(41);
        for (int i = 0; i < 200_000; i++) {
            int nano = switch (i % 4) {
                case 0 -> 0;
                case 1 -> random.nextInt(1000) * 1_000_000;
                case 2 -> random.nextInt(1_000_000) * 1_000;
                default -> random.nextInt(1_000_000_000);
            };
            long second = i % 5 == 0 ? random.nextLong(-100_000_000_000L, 400_000_000_000L) : random.nextLong(FIRST, LAST + 1);
            instants.add(Instant.ofEpochSecond(second, nano));
        }
        byte[] buffer = new byte[InstantText.MAX_ASCII_LENGTH];
        for (Instant instant : instants) {
            String text = instant.toString();
            assertThat(InstantText.format(instant)).as("%s", instant).isEqualTo(text);
            assertThat(InstantText.ascii(instant)).as("%s", instant).isEqualTo(text.getBytes(StandardCharsets.US_ASCII));
            int length = InstantText.writeAscii(instant, buffer);
            boolean direct = instant.getEpochSecond() >= FIRST && instant.getEpochSecond() <= LAST;
            assertThat(length).as("%s", instant).isEqualTo(direct ? text.length() : -1);
            if (direct) assertThat(new String(buffer, 0, length, StandardCharsets.US_ASCII)).as("%s", instant).isEqualTo(text);
        }
    }

    @Test
    void readsBackWhatItWritesAndWhatInstantParseReads() {
        SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < 200_000; i++) {
            Instant instant = Instant.ofEpochSecond(random.nextLong(FIRST - 1_000_000, LAST + 1_000_000), random.nextInt(1_000_000_000));
            String text = instant.toString();
            assertThat(InstantText.parse(text)).as(text).isEqualTo(instant);
            // a fraction of any length, as clients write them
            int fractionDigits = text.length() - 21;
            String cut = fractionDigits > 0 ? text.substring(0, 20 + random.nextInt(1, fractionDigits + 1)) + "Z" : text;
            assertThat(InstantText.parse(cut)).as(cut).isEqualTo(Instant.parse(cut));
        }
    }

    @Test
    void textTheDirectPathDoesNotTakeIsLeftToInstantParseWithItsAnswerOrItsRefusal() {
        for (String text : List.of("2026-11-30T10:00:00+01:00", "2026-11-30t10:00:00z", "2026-11-30T23:59:60Z",
                "2026-11-30T24:00:00Z", "+10000-01-01T00:00:00Z", "-0001-12-31T00:00:00Z", "2026-11-30T10:00:00.Z",
                "2026-02-29T10:00:00Z", "2024-02-29T10:00:00Z", "2026-13-01T10:00:00Z", "2026-04-31T10:00:00Z",
                "2026-11-30T10:60:00Z", "2026-11-30T10:00:00.1234567890Z", "2026-11-3OT10:00:00Z", "2026-11-30 10:00:00Z",
                "2026-11-30T10:00Z", "2026-11-30T10:00:00", "")) {
            assertThat(outcome(() -> InstantText.parse(text))).as(text).isEqualTo(outcome(() -> Instant.parse(text)));
        }
    }

    /** The instant parsed, or the refusal's message. */
    private static Object outcome(java.util.function.Supplier<Instant> parse) {
        try {
            return parse.get();
        } catch (DateTimeParseException e) {
            return "refused: " + e.getMessage();
        }
    }
}
