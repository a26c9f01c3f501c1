package dev.taskgov.cli;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Plain GETs of a service's text (Prometheus metrics, topology JSON); failures say which service and which flag. */
final class ServiceReads {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private ServiceReads() {
    }

    /**
     * The body of {@code GET uri}.
     *
     * @param service what answers there, e.g. {@code topology-service}
     * @param flag    the option that sets its URL, named when it cannot be reached
     */
    static String get(URI uri, String service, String flag) {
        HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
        HttpResponse<String> response;
        try {
            response = http.send(HttpRequest.newBuilder(uri).timeout(TIMEOUT).GET().build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new CliException(CliException.FAILED, "cannot reach " + service + " at " + uri + " ("
                    + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage())
                    + "); is it running (deploy/local/taskgov-local up), or set " + flag, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw CliException.failed("interrupted");
        }
        if (response.statusCode() / 100 != 2) {
            throw CliException.failed(service + " answered " + response.statusCode() + " to GET " + uri.getPath() + ": "
                    + response.body().lines().findFirst().orElse(""));
        }
        return response.body();
    }
}
