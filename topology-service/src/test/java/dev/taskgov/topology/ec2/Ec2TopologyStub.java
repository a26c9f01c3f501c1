package dev.taskgov.topology.ec2;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A local EC2 query-protocol endpoint answering {@code Action=DescribeInstanceTopology} with real
 * response XML, paging by {@code NextToken}, with scripted faults (a throttling error, a malformed
 * answer) for the next requests. Listens on 127.0.0.1 only.
 */
public final class Ec2TopologyStub implements AutoCloseable {

    public enum Fault { THROTTLE, MALFORMED, SERVER_ERROR }

    private final HttpServer server;
    private volatile List<InstanceTopologyEntry> instances = List.of();
    private volatile int pageSize = 2;
    private final Deque<Fault> faults = new ArrayDeque<>();
    private final Map<Integer, Fault> faultsOnPage = new LinkedHashMap<>();
    /** Every request's form parameters, in arrival order. */
    public final List<Map<String, String>> requests = new CopyOnWriteArrayList<>();

    public Ec2TopologyStub() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::handle);
        server.start();
    }

    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    public void setInstances(List<InstanceTopologyEntry> instances) {
        this.instances = List.copyOf(instances);
    }

    public void setPageSize(int pageSize) {
        this.pageSize = pageSize;
    }

    public List<InstanceTopologyEntry> instances() {
        return instances;
    }

    public synchronized void clearFaults() {
        faults.clear();
        faultsOnPage.clear();
    }

    /** The next request gets this fault instead of an answer. */
    public synchronized void failNext(Fault fault) {
        faults.add(fault);
    }

    /** The next request for this page (0-based) gets the fault. */
    public synchronized void failPage(int page, Fault fault) {
        faultsOnPage.put(page, fault);
    }

    private void handle(HttpExchange exchange) throws IOException {
        Map<String, String> form = parseForm(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
        requests.add(form);
        if (!"DescribeInstanceTopology".equals(form.get("Action"))) {
            respond(exchange, 400, error("InvalidAction", "The action " + form.get("Action") + " is not valid for this web service."));
            return;
        }
        List<InstanceTopologyEntry> all = instances;
        int start = form.containsKey("NextToken") ? Integer.parseInt(form.get("NextToken").substring("token-".length())) : 0;
        int page = start / pageSize;
        Fault fault;
        synchronized (this) {
            fault = faults.poll();
            if (fault == null) fault = faultsOnPage.remove(page);
        }
        if (fault != null) {
            switch (fault) {
                case THROTTLE -> respond(exchange, 503, error("RequestLimitExceeded", "Request limit exceeded."));
                case SERVER_ERROR -> respond(exchange, 500, error("InternalError", "An internal error has occurred."));
                case MALFORMED -> respond(exchange, 200, "<DescribeInstanceTopologyResponse xmlns=\"http://ec2.amazonaws.com/doc/2016-11-15/\"><instanceSet><item><instanceId>i-trunc");
            }
            return;
        }
        List<InstanceTopologyEntry> filtered = new ArrayList<>();
        for (InstanceTopologyEntry i : all) {
            if (matches(i, form)) filtered.add(i);
        }
        int end = Math.min(filtered.size(), start + pageSize);
        StringBuilder xml = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
                .append("<DescribeInstanceTopologyResponse xmlns=\"http://ec2.amazonaws.com/doc/2016-11-15/\">\n")
                .append("  <requestId>").append(java.util.UUID.randomUUID()).append("</requestId>\n")
                .append("  <instanceSet>\n");
        for (InstanceTopologyEntry i : filtered.subList(Math.min(start, end), end)) {
            xml.append("    <item>\n      <instanceId>").append(i.instanceId()).append("</instanceId>\n")
                    .append("      <instanceType>").append(i.instanceType()).append("</instanceType>\n");
            if (i.groupName() != null) xml.append("      <groupName>").append(i.groupName()).append("</groupName>\n");
            xml.append("      <networkNodeSet>\n");
            for (String nn : i.networkNodes()) xml.append("        <item>").append(nn).append("</item>\n");
            xml.append("      </networkNodeSet>\n      <availabilityZone>us-west-2a</availabilityZone>\n")
                    .append("      <zoneId>usw2-az1</zoneId>\n    </item>\n");
        }
        xml.append("  </instanceSet>\n");
        if (end < filtered.size()) xml.append("  <nextToken>token-").append(end).append("</nextToken>\n");
        xml.append("</DescribeInstanceTopologyResponse>\n");
        respond(exchange, 200, xml.toString());
    }

    private static boolean matches(InstanceTopologyEntry i, Map<String, String> form) {
        List<String> ids = indexed(form, "InstanceId.");
        List<String> groups = indexed(form, "GroupName.");
        List<String> types = "instance-type".equals(form.get("Filter.1.Name")) ? indexed(form, "Filter.1.Value.") : List.of();
        return (ids.isEmpty() || ids.contains(i.instanceId()))
                && (groups.isEmpty() || groups.contains(i.groupName()))
                && (types.isEmpty() || types.contains(i.instanceType()));
    }

    private static List<String> indexed(Map<String, String> form, String prefix) {
        List<String> out = new ArrayList<>();
        for (int n = 1; form.containsKey(prefix + n); n++) out.add(form.get(prefix + n));
        return out;
    }

    private static String error(String code, String message) {
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Response><Errors><Error><Code>" + code + "</Code><Message>" + message
                + "</Message></Error></Errors><RequestID>" + java.util.UUID.randomUUID() + "</RequestID></Response>";
    }

    private static Map<String, String> parseForm(String body) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String pair : body.split("&")) {
            if (pair.isEmpty()) continue;
            int eq = pair.indexOf('=');
            String k = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String v = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            out.put(k, v);
        }
        return out;
    }

    private static void respond(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "text/xml;charset=UTF-8");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream os = exchange.getResponseBody()) {
            os.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
