package dev.taskgov.cli;

import dev.taskgov.core.events.EventCodec;
import software.amazon.awssdk.regions.ServiceMetadata;

import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Set;

/**
 * Starts, beside the main thread, the one-time initialisations a command that talks to the services will need anyway,
 * so that they run while the main thread builds picocli's model instead of after it: on two cores a signed command
 * then finishes sooner, for the same CPU (docs/benchmarks.md, "CLI start time"). Each is a JDK or library class's own
 * static initialisation, which the JVM runs once whichever thread asks first (the other waits for it): the JDK's HMAC
 * (its first use reads the security providers and looks for URL handlers on every jar of the class path), taskgov's
 * JSON mapper, and for the SageMaker commands the AWS SDK's table of every service's endpoints and signing regions,
 * which building any SDK client reads (about a seventh of {@code quota list}'s CPU). Nothing here is shown or kept: a
 * failure is left for the command itself to meet and report.
 */
final class StartupWarmup {

    /** First words of the commands that sign requests to the services. */
    private static final Set<String> SIGNED = Set.of("get", "describe", "submit", "queue", "audit", "credentials", "list",
            "quota", "scheduler-config", "policy");
    /** First words of the commands that speak the SageMaker API through the AWS SDK's client. */
    private static final Set<String> SAGEMAKER = Set.of("quota", "scheduler-config", "policy");
    private static final Set<String> HELP = Set.of("-h", "--help", "-V", "--version");

    private StartupWarmup() {
    }

    /** The warm-up thread started for {@code args} (a daemon), or null when the command signs nothing or asks for help. */
    static Thread start(String... args) {
        if (args.length == 0 || !SIGNED.contains(args[0]) || Arrays.stream(args).anyMatch(HELP::contains)) return null;
        boolean sageMaker = SAGEMAKER.contains(args[0]);
        Thread warmup = new Thread(() -> warm(sageMaker), "taskgov-startup-warmup");
        warmup.setDaemon(true);
        warmup.start();
        return warmup;
    }

    private static void warm(boolean sageMaker) {
        try {
            if (sageMaker) ServiceMetadata.of("api.sagemaker");
            javax.crypto.Mac.getInstance("HmacSHA256");
            EventCodec.mapper().readTree("{\"warm\":[1]}");
        } catch (NoSuchAlgorithmException | com.fasterxml.jackson.core.JsonProcessingException | RuntimeException e) {
            // the command meets the same failure where it needs the part, and reports it there
        }
    }
}
