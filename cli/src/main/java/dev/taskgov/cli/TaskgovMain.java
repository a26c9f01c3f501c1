package dev.taskgov.cli;

import picocli.CommandLine;

/**
 * The light way in: picocli straight from {@code main}, without booting Quarkus (the commands need no CDI;
 * the tests run them the same way). The {@code taskgov} wrapper starts this class on the Quarkus build's
 * class path, which saves the framework's start on every command (docs/benchmarks.md, "CLI start time");
 * {@code java -jar quarkus-run.jar} still works and behaves the same.
 */
public final class TaskgovMain {

    private TaskgovMain() {
    }

    public static void main(String[] args) {
        // Libraries log through slf4j to JBoss LogManager, which must be the JDK's log manager before anything
        // logs (else it prints an error). Unconfigured, it shows no library log lines on this path (the Quarkus
        // launch shows their warnings); the commands say what failed themselves.
        System.setProperty("java.util.logging.manager", "org.jboss.logmanager.LogManager");
        System.exit(new CommandLine(new TaskgovCommand()).execute(args));
    }
}
