package dev.taskgov.cli;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A real HTTP server on 127.0.0.1 that answers recorded responses: the key is "METHOD path?query"
 * (or "POST target" for the SageMaker API, from its X-Amz-Target header); every request is kept.
 */
final class StubServer implements AutoCloseable {

    record Answer(int status, String contentType, String body) {
    }

    record Request(String method, String uri, Map<String, List<String>> headers, String body) {
        String header(String name) {
            return headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name))
                    .map(e -> e.getValue().get(0)).findFirst().orElse(null);
        }
    }

    private final HttpServer server;
    final Map<String, Answer> answers = new ConcurrentHashMap<>();
    private final Map<String, java.util.Deque<Answer>> inTurn = new ConcurrentHashMap<>();
    final List<Request> requests = new CopyOnWriteArrayList<>();

    StubServer() {
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/", this::handle);
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    StubServer answer(String key, int status, String body) {
        answers.put(key, new Answer(status, "application/json", body));
        return this;
    }

    /** Answers {@code key} with each body in turn, then keeps answering the last (a service whose state changes). */
    StubServer answerInTurn(String key, String... bodies) {
        java.util.Deque<Answer> turns = new java.util.concurrent.ConcurrentLinkedDeque<>();
        for (String b : bodies) turns.add(new Answer(200, "application/json", b));
        inTurn.put(key, turns);
        return this;
    }

    StubServer answerAws(String operation, int status, String body) {
        answers.put("POST SageMaker." + operation, new Answer(status, "application/x-amz-json-1.1", body));
        return this;
    }

    private void handle(HttpExchange ex) throws IOException {
        String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        requests.add(new Request(ex.getRequestMethod(), ex.getRequestURI().toString(), Map.copyOf(ex.getRequestHeaders()), body));
        String target = ex.getRequestHeaders().getFirst("X-Amz-Target");
        String key = target != null ? "POST " + target : ex.getRequestMethod() + " " + ex.getRequestURI();
        java.util.Deque<Answer> turns = inTurn.get(key);
        Answer a = turns != null ? (turns.size() > 1 ? turns.poll() : turns.peek()) : answers.getOrDefault(key, new Answer(404, "application/json", "{\"message\":\"stub: nothing recorded for " + key + "\"}"));
        byte[] bytes = a.body().getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().add("Content-Type", a.contentType());
        ex.sendResponseHeaders(a.status(), bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) ex.getResponseBody().write(bytes);
        ex.close();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
