package dev.taskgov.core.auth;

/**
 * Text from a caller made safe to store and print on one line: every control character (C0, DEL, C1), the line and
 * paragraph separators and the bidirectional overrides become a visible escape ({@code \n}, {@code \x1B},
 * {@code \u202E}). A request path, header or body field can then neither end an audit line and forge the next one,
 * nor move the cursor, clear the screen or reorder what a terminal shows, and PostgreSQL stores every record (it
 * refuses NUL in text, which lost the record of such a request).
 *
 * <p>A backslash is kept as it is, so escaping is idempotent: a record escaped by the service that wrote it is stored
 * and printed unchanged by every later hop. A caller who types {@code \x1B} literally gets the same visible text as
 * one who sends ESC; both are harmless, and which of them it was is not what the audit trail is for.
 */
public final class SafeText {

    private SafeText() {
    }

    /** {@code s} with every unsafe character escaped; null stays null. */
    public static String escape(String s) {
        if (s == null) {
            return null;
        }
        int i = 0;
        while (i < s.length() && !unsafe(s.charAt(i))) {
            i++;
        }
        if (i == s.length()) {
            return s;
        }
        StringBuilder sb = new StringBuilder(s.length() + 16).append(s, 0, i);
        for (; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!unsafe(c)) {
                sb.append(c);
            } else if (c == '\n') {
                sb.append("\\n");
            } else if (c == '\r') {
                sb.append("\\r");
            } else if (c == '\t') {
                sb.append("\\t");
            } else if (c <= 0xFF) {
                sb.append(String.format("\\x%02X", (int) c));
            } else {
                sb.append(String.format("\\u%04X", (int) c));
            }
        }
        return sb.toString();
    }

    /** Whether {@code s} holds nothing {@link #escape} would change. */
    public static boolean isSafe(String s) {
        return s == null || s.chars().noneMatch(c -> unsafe((char) c));
    }

    private static boolean unsafe(char c) {
        return c < 0x20 || (c >= 0x7F && c <= 0x9F)
                || c == 0x2028 || c == 0x2029                 // line and paragraph separators
                || c == 0x061C || c == 0x200E || c == 0x200F  // bidirectional marks
                || (c >= 0x202A && c <= 0x202E)               // bidirectional embeddings and overrides
                || (c >= 0x2066 && c <= 0x2069)               // bidirectional isolates
                || c == 0xFEFF;                               // zero-width no-break space
    }
}
