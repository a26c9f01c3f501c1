package dev.taskgov.testsupport;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What a test JVM starts once and shares (the broker, the database), found again by every class loader of that JVM.
 *
 * <p>Quarkus loads a test's classes, test-support's among them, anew for each application it starts in one JVM (one
 * per test profile or set of test resources), so a static field lasts only as long as one application. Kept there,
 * the "one broker per JVM" was started again for each application, in the first one's directory, deleting the files
 * of a broker still running: a later application's start could fail on that (the job watcher's
 * {@code SuspendWebhookTest} did so in CI, in under a second). System properties belong to the JVM, so what was
 * started is recorded there, under names outside the {@code taskgov} prefix that the services' configuration
 * mappings check for unknown properties.
 */
final class JvmWide {

    private static final String PREFIX = "dev.taskgov.testsupport.";
    /** One object in the whole JVM whichever class loader loaded this class: string literals are interned. */
    private static final String LOCK = "dev.taskgov.testsupport.JvmWide.lock";

    private JvmWide() {
    }

    /**
     * What {@code start} returned the first time any class loader of this JVM asked for {@code what}; {@code start}
     * runs at most once per JVM (unless it throws). Values must not be null.
     */
    static Map<String, String> startOnce(String what, Supplier<Map<String, String>> start) {
        String marker = PREFIX + what;
        synchronized (LOCK) {
            if (System.getProperty(marker) == null) {
                Map<String, String> started = start.get();
                started.forEach((key, value) -> System.setProperty(marker + "." + key, value));
                System.setProperty(marker, String.join(",", started.keySet()));
            }
            Map<String, String> recorded = new LinkedHashMap<>();
            for (String key : System.getProperty(marker).split(",")) {
                if (!key.isEmpty()) recorded.put(key, System.getProperty(marker + "." + key));
            }
            return recorded;
        }
    }
}
