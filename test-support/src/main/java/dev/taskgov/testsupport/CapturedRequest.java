package dev.taskgov.testsupport;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * An HTTP request as it travels on the wire, signed with SigV4 over exactly the headers the test chooses and sent
 * byte for byte over a plain socket, so that a test can alter it afterwards as someone holding it would (swap a
 * header, rewrite {@code Host}, cut the credential scope, change the body's bytes), which an HTTP client library
 * does not allow. The signing follows the SigV4 specification by hand, independently of the AWS SDK the services
 * verify with: a test of the verifier must not share its code.
 */
public final class CapturedRequest {

    private static final DateTimeFormatter AMZ_DATE = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

    private final String method;
    private final String path;
    /** Header name as sent -> value; order kept as sent. */
    private final Map<String, String> headers = new LinkedHashMap<>();
    private byte[] body;

    private CapturedRequest(String method, String path, byte[] body) {
        this.method = method;
        this.path = path;
        this.body = body;
    }

    /**
     * A request signed at {@code at} with key {@code keyId}/{@code secret} for {@code region}/{@code service}; of
     * {@code headers} (name, value pairs; {@code Host} among them), those named in {@code signed} are signed, the
     * others sent unsigned; {@code X-Amz-Date} is added and signed.
     */
    public static CapturedRequest signed(String method, String path, byte[] body, String keyId, String secret, String region,
                                         String service, Instant at, List<String> signed, String... headers) {
        CapturedRequest r = new CapturedRequest(method, path, body);
        String amzDate = AMZ_DATE.format(at);
        for (int i = 0; i + 1 < headers.length; i += 2) {
            r.headers.put(headers[i], headers[i + 1]);
        }
        r.headers.put("X-Amz-Date", amzDate);
        TreeMap<String, String> canonical = new TreeMap<>();
        for (String name : signed) {
            String value = r.header(name);
            if (value == null) throw new IllegalArgumentException("no header " + name + " to sign");
            canonical.put(name.toLowerCase(Locale.ROOT), value.trim());
        }
        String signedHeaders = String.join(";", canonical.keySet());
        StringBuilder creq = new StringBuilder(method).append('\n').append(path).append("\n\n");
        canonical.forEach((k, v) -> creq.append(k).append(':').append(v).append('\n'));
        creq.append('\n').append(signedHeaders).append('\n').append(hex(sha256(body)));
        String date = amzDate.substring(0, 8);
        String scope = date + "/" + region + "/" + service + "/aws4_request";
        String toSign = "AWS4-HMAC-SHA256\n" + amzDate + "\n" + scope + "\n" + hex(sha256(creq.toString().getBytes(StandardCharsets.UTF_8)));
        byte[] key = hmac(("AWS4" + secret).getBytes(StandardCharsets.UTF_8), date);
        key = hmac(key, region);
        key = hmac(key, service);
        key = hmac(key, "aws4_request");
        String signature = hex(hmac(key, toSign));
        r.headers.put("Authorization", "AWS4-HMAC-SHA256 Credential=" + keyId + "/" + scope + ", SignedHeaders=" + signedHeaders
                + ", Signature=" + signature);
        return r;
    }

    /** The value of a header (case-insensitive), or null. */
    public String header(String name) {
        return headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name)).map(Map.Entry::getValue)
                .findFirst().orElse(null);
    }

    /** Sets (or replaces) a header after signing, as someone holding the request would. */
    public CapturedRequest with(String name, String value) {
        headers.keySet().removeIf(k -> k.equalsIgnoreCase(name));
        headers.put(name, value);
        return this;
    }

    /** Replaces the body after signing. */
    public CapturedRequest withBody(byte[] bytes) {
        this.body = bytes;
        return this;
    }

    /** The answer: status and body. */
    public record Answer(int status, String body) {
    }

    /** Sends the request, exactly as it stands, to 127.0.0.1:{@code port} over HTTP/1.1. */
    public Answer send(int port) {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(30_000);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            StringBuilder head = new StringBuilder(method).append(' ').append(path).append(" HTTP/1.1\r\n");
            headers.forEach((k, v) -> head.append(k).append(": ").append(v).append("\r\n"));
            head.append("Content-Length: ").append(body.length).append("\r\nConnection: close\r\n\r\n");
            out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
            out.write(body);
            OutputStream os = socket.getOutputStream();
            os.write(out.toByteArray());
            os.flush();
            return parse(socket.getInputStream().readAllBytes());
        } catch (IOException e) {
            throw new IllegalStateException(method + " " + path + " to port " + port + " failed: " + e.getMessage(), e);
        }
    }

    private static Answer parse(byte[] raw) throws IOException {
        String all = new String(raw, StandardCharsets.ISO_8859_1);
        int end = all.indexOf("\r\n\r\n");
        if (end < 0) throw new IOException("no complete HTTP answer: " + all);
        String[] lines = all.substring(0, end).split("\r\n");
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        boolean chunked = false;
        for (String line : lines) {
            if (line.toLowerCase(Locale.ROOT).startsWith("transfer-encoding:") && line.toLowerCase(Locale.ROOT).contains("chunked")) {
                chunked = true;
            }
        }
        byte[] rest = java.util.Arrays.copyOfRange(raw, end + 4, raw.length);
        return new Answer(status, new String(chunked ? dechunk(rest) : rest, StandardCharsets.UTF_8));
    }

    private static byte[] dechunk(byte[] in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        InputStream s = new java.io.ByteArrayInputStream(in);
        while (true) {
            StringBuilder size = new StringBuilder();
            int c;
            while ((c = s.read()) != -1 && c != '\n') if (c != '\r') size.append((char) c);
            int n = Integer.parseInt(size.toString().split(";")[0].trim(), 16);
            if (n == 0) return out.toByteArray();
            out.write(s.readNBytes(n));
            s.read();
            s.read();
        }
    }

    private static byte[] sha256(byte[] b) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(b);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] hmac(byte[] key, String data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String hex(byte[] b) {
        return HexFormat.of().formatHex(b);
    }
}
