package dev.taskgov.cli;

import java.text.MessageFormat;
import java.util.ResourceBundle;

/**
 * The JDK's loggers (System.Logger, and the JDK's platform loggers behind it, e.g. the HTTP client's) on the direct
 * start: warnings and errors to stderr, nothing else. The JDK takes the first logger finder its service lookup finds on
 * the class path, and the CLI's jar comes first there; without this one it finds the JBoss LogManager's, whose start
 * (Quarkus' delayed log handler, which only a Quarkus start ever prints) costs about a tenth of a signed command's
 * CPU, and would hide those warnings (docs/benchmarks.md, "CLI start time"). The Quarkus launch
 * ({@code java -jar quarkus-run.jar}) does not see this class: its system class loader holds only the boot jars, so
 * there the JBoss LogManager stays the JDK's logger finder.
 */
public final class CliLoggerFinder extends System.LoggerFinder {

    @Override
    public System.Logger getLogger(String name, Module module) {
        return new StderrLogger(name);
    }

    /** A logger that shows what a user should see (warnings and errors) and drops the rest. */
    record StderrLogger(String name) implements System.Logger {

        @Override
        public String getName() {
            return name;
        }

        @Override
        public boolean isLoggable(Level level) {
            return level != Level.OFF && level.getSeverity() >= Level.WARNING.getSeverity();
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String msg, Throwable thrown) {
            if (!isLoggable(level)) return;
            System.err.println(level + " [" + name + "] " + localized(bundle, msg) + (thrown == null ? "" : ": " + thrown));
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String format, Object... params) {
            if (!isLoggable(level)) return;
            String text = localized(bundle, format);
            System.err.println(level + " [" + name + "] " + (params == null || params.length == 0 ? text : MessageFormat.format(text, params)));
        }

        private static String localized(ResourceBundle bundle, String msg) {
            return bundle != null && msg != null && bundle.containsKey(msg) ? bundle.getString(msg) : msg;
        }
    }
}
