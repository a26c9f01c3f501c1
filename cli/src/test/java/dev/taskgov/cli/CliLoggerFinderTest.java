package dev.taskgov.cli;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ListResourceBundle;
import java.util.ResourceBundle;

import static org.assertj.core.api.Assertions.assertThat;

/** The direct start's JDK loggers: warnings and errors reach the user on stderr, the rest is dropped. */
class CliLoggerFinderTest {

    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private PrintStream stderr;

    @BeforeEach
    void captureStderr() {
        stderr = System.err;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void restoreStderr() {
        System.setErr(stderr);
    }

    @Test
    void warningsAndErrorsAreShownWithTheirLoggerAndArguments() {
        System.Logger logger = new CliLoggerFinder().getLogger("sun.net.www.protocol.http.HttpURLConnection", Object.class.getModule());

        logger.log(System.Logger.Level.WARNING, "proxy {0} refused", "10.0.0.1:3128");
        logger.log(System.Logger.Level.ERROR, "connection reset", new java.io.IOException("reset by peer"));

        assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo(
                "WARNING [sun.net.www.protocol.http.HttpURLConnection] proxy 10.0.0.1:3128 refused" + System.lineSeparator()
                        + "ERROR [sun.net.www.protocol.http.HttpURLConnection] connection reset: java.io.IOException: reset by peer"
                        + System.lineSeparator());
    }

    @Test
    void lowerLevelsAreDroppedWithoutFormatting() {
        System.Logger logger = new CliLoggerFinder().getLogger("jdk.internal.httpclient", Object.class.getModule());

        for (System.Logger.Level level : new System.Logger.Level[] {System.Logger.Level.ALL, System.Logger.Level.TRACE,
                System.Logger.Level.DEBUG, System.Logger.Level.INFO, System.Logger.Level.OFF}) {
            assertThat(logger.isLoggable(level)).as(level.getName()).isFalse();
            logger.log(level, "sent {0}", "GET /workloads");
        }

        assertThat(err.size()).isZero();
    }

    @Test
    void aMessageFromABundleIsLocalized() {
        ResourceBundle bundle = new ListResourceBundle() {
            @Override
            protected Object[][] getContents() {
                return new Object[][] {{"refused", "the proxy {0} refused the tunnel"}};
            }
        };
        System.Logger logger = new CliLoggerFinder().getLogger("net", Object.class.getModule());

        logger.log(System.Logger.Level.WARNING, bundle, "refused", "p:1");

        assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo("WARNING [net] the proxy p:1 refused the tunnel" + System.lineSeparator());
    }
}
