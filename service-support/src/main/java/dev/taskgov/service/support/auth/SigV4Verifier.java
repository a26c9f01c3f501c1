package dev.taskgov.service.support.auth;

import dev.taskgov.core.auth.Principal;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.internal.signer.CredentialScope;
import software.amazon.awssdk.http.auth.aws.internal.signer.DefaultV4RequestSigner;
import software.amazon.awssdk.http.auth.aws.internal.signer.V4Properties;
import software.amazon.awssdk.http.auth.aws.internal.signer.util.SignerUtils;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.utils.BinaryUtils;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Verifies AWS Signature Version 4 as AWS does: the expected signature is computed by the AWS SDK's own V4 signer
 * (the request signer inside {@link AwsV4HttpSigner}) from the request's signed headers, path, query and body, with the key's secret and the
 * request's own date and credential scope, and compared in constant time. Refusals carry AWS's error shapes
 * ({@link AuthFailure}). A request dated more than {@link #MAX_SKEW} away from the service's clock is refused, and
 * so is a request that changes state whose signature was seen before within that window (a replay). A request that
 * only reads may be presented again, as AWS accepts it: botocore signs no per-call id, so the same {@code aws}
 * describe run twice within a second carries the same signature, and a second read repeats nothing.
 */
public final class SigV4Verifier {

    public static final Duration MAX_SKEW = Duration.ofMinutes(5);
    private static final String ALGORITHM = "AWS4-HMAC-SHA256";
    private static final DateTimeFormatter AMZ_DATE =
            DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

    private final CredentialLookup credentials;
    private final Clock clock;
    private final ReplayGuard replays;

    public SigV4Verifier(CredentialLookup credentials, Clock clock) {
        this.credentials = credentials;
        this.clock = clock;
        this.replays = new ReplayGuard(MAX_SKEW);
    }

    /** The principal that signed the request, or an {@link AuthFailure} saying why not. */
    public Principal verify(SignedRequest request) {
        String authorization = request.header("Authorization");
        if (authorization == null || !authorization.startsWith("AWS4-")) {
            throw AuthFailure.missingToken();
        }
        Map<String, String> parts = parts(authorization);
        String credential = required(parts, "Credential");
        String signedHeaders = required(parts, "SignedHeaders");
        String signature = required(parts, "Signature");
        String[] scope = credential.split("/");
        if (scope.length != 5 || !scope[4].equals("aws4_request")) {
            throw AuthFailure.incomplete("Credential should be scoped to a valid region, service and date: "
                    + "KEY/yyyyMMdd/REGION/SERVICE/aws4_request, was '" + credential + "'");
        }
        String keyId = scope[0];
        try {
            return verify(request, keyId, scope, signedHeaders, signature);
        } catch (AuthFailure e) {
            throw e.claimedBy(keyId);
        }
    }

    private Principal verify(SignedRequest request, String keyId, String[] scope, String signedHeaders, String signature) {
        requireSigned(request, signedHeaders);
        Instant signedAt = requestTime(request);
        if (!AMZ_DATE.format(signedAt).substring(0, 8).equals(scope[1])) {
            throw AuthFailure.invalidSignature("Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP: '"
                    + scope[1] + "' != '" + AMZ_DATE.format(signedAt).substring(0, 8) + "'");
        }
        Instant now = clock.instant();
        if (signedAt.isBefore(now.minus(MAX_SKEW))) {
            throw AuthFailure.invalidSignature("Signature expired: " + AMZ_DATE.format(signedAt) + " is now earlier than "
                    + AMZ_DATE.format(now.minus(MAX_SKEW)) + " (" + AMZ_DATE.format(now) + " - 5 min.)");
        }
        if (signedAt.isAfter(now.plus(MAX_SKEW))) {
            throw AuthFailure.invalidSignature("Signature not yet current: " + AMZ_DATE.format(signedAt) + " is still later than "
                    + AMZ_DATE.format(now.plus(MAX_SKEW)) + " (" + AMZ_DATE.format(now) + " + 5 min.)");
        }
        CredentialLookup.Found found = credentials.find(keyId).orElseThrow(() -> AuthFailure.unrecognized(keyId));
        String expected = expectedSignature(request, signedHeaders, scope[2], scope[3], signedAt, keyId, found.secret());
        if (!MessageDigest.isEqual(expected.getBytes(StandardCharsets.US_ASCII), signature.getBytes(StandardCharsets.US_ASCII))) {
            throw AuthFailure.invalidSignature("The request signature we calculated does not match the signature you provided. "
                    + "Check your AWS Secret Access Key and signing method. Consult the service documentation for details.");
        }
        if (request.changesState() && !replays.firstUse(signature, signedAt, now)) {
            throw AuthFailure.invalidSignature("Signature has already been used: a request is accepted once (replay refused)");
        }
        return found.principal();
    }

    /**
     * Refuses a request that carries, unsigned, a header that decides what it does or where it goes, as AWS does:
     * an unsigned header can be changed by whoever holds the request (an {@code X-Amz-Target} swapped turns a List
     * into a Delete; a {@code Host} rewritten sends it to another service) without breaking the signature. So
     * {@code host}, the date header, and, when the request carries them, {@code content-type} and every
     * {@code x-amz-*} header (among them {@code x-amz-target}) must be among the {@code SignedHeaders}.
     */
    private static void requireSigned(SignedRequest request, String signedHeaders) {
        java.util.Set<String> signed = new java.util.HashSet<>();
        for (String name : signedHeaders.split(";")) {
            signed.add(name.trim().toLowerCase(Locale.ROOT));
        }
        if (!signed.contains("host")) {
            throw AuthFailure.invalidSignature("'Host' or ':authority' must be a 'SignedHeader' in the AWS Authorization.");
        }
        if (request.header("X-Amz-Date") == null && request.header("Date") != null && !signed.contains("date")) {
            throw AuthFailure.invalidSignature("'Date' must be a 'SignedHeader' in the AWS Authorization.");
        }
        java.util.Set<String> unsigned = new java.util.TreeSet<>();
        for (String name : request.headers().keySet()) {
            String lower = name.toLowerCase(Locale.ROOT);
            if ((lower.equals("content-type") || lower.startsWith("x-amz-")) && !signed.contains(lower)) {
                unsigned.add(lower);
            }
        }
        if (unsigned.contains("x-amz-date")) {
            throw AuthFailure.invalidSignature("'X-Amz-Date' must be a 'SignedHeader' in the AWS Authorization.");
        }
        if (!unsigned.isEmpty()) {
            throw AuthFailure.invalidSignature("There were headers present in the request which were not signed: "
                    + String.join(", ", unsigned) + " (SignedHeaders must name host, x-amz-date, content-type and every "
                    + "x-amz-* header the request carries)");
        }
    }

    /**
     * The signature the AWS SDK's V4 request signer gives this request over exactly the headers the client says it
     * signed. (The public {@link AwsV4HttpSigner} would add an {@code x-amz-content-sha256} header of its own, which
     * botocore, the {@code aws} CLI's signer, does not sign; the SDK's request signer underneath it canonicalizes
     * what it is given, so both clients verify.)
     */
    private static String expectedSignature(SignedRequest request, String signedHeaders, String region, String service,
                                            Instant signedAt, String keyId, String secret) {
        SdkHttpRequest.Builder b = SdkHttpRequest.builder()
                .method(method(request.method()))
                .protocol("http")
                .host(hostOnly(request))
                .encodedPath(request.rawPath().isEmpty() ? "/" : request.rawPath());
        for (String name : signedHeaders.split(";")) {
            List<String> values = request.headers().get(name);
            if (values == null) {
                throw AuthFailure.incomplete("SignedHeaders names '" + name + "', which the request does not carry");
            }
            b.putHeader(name, values);
        }
        query(request.rawQuery()).forEach(b::putRawQueryParameter);
        V4Properties properties = V4Properties.builder()
                .credentials(AwsCredentialsIdentity.create(keyId, secret))
                .credentialScope(new CredentialScope(region, service, signedAt))
                .signingClock(Clock.fixed(signedAt, ZoneOffset.UTC))
                .doubleUrlEncode(true)
                .normalizePath(true)
                .build();
        String contentHash = BinaryUtils.toHex(SignerUtils.hash(request.body()));
        return new DefaultV4RequestSigner(properties, contentHash).sign(b).getSignature();
    }

    private static Instant requestTime(SignedRequest request) {
        String date = request.header("X-Amz-Date");
        if (date == null) {
            String httpDate = request.header("Date");
            if (httpDate == null) {
                throw AuthFailure.incomplete("Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header.");
            }
            try {
                return java.time.ZonedDateTime.parse(httpDate, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
            } catch (DateTimeParseException e) {
                throw AuthFailure.incomplete("Date header '" + httpDate + "' is not an RFC 1123 date");
            }
        }
        try {
            return Instant.from(AMZ_DATE.parse(date));
        } catch (DateTimeParseException e) {
            throw AuthFailure.incomplete("X-Amz-Date '" + date + "' is not an ISO-8601 basic date such as 20261201T120000Z");
        }
    }

    private static Map<String, String> parts(String authorization) {
        Map<String, String> out = new LinkedHashMap<>();
        int space = authorization.indexOf(' ');
        if (space < 0) {
            return out;
        }
        if (!authorization.substring(0, space).equals(ALGORITHM)) {
            throw AuthFailure.incomplete("Unsupported signing algorithm '" + authorization.substring(0, space)
                    + "' (only " + ALGORITHM + ")");
        }
        for (String part : authorization.substring(space + 1).split(",")) {
            int eq = part.indexOf('=');
            if (eq > 0) {
                out.put(part.substring(0, eq).trim(), part.substring(eq + 1).trim());
            }
        }
        return out;
    }

    private static String required(Map<String, String> parts, String name) {
        String v = parts.get(name);
        if (v == null || v.isEmpty()) {
            throw AuthFailure.incomplete("Authorization header requires '" + name + "' parameter. Authorization header requires "
                    + "'Credential', 'SignedHeaders' and 'Signature' parameters and an 'X-Amz-Date' or 'Date' header.");
        }
        return v;
    }

    private static String hostOnly(SignedRequest request) {
        String host = request.header("Host");
        if (host == null) {
            throw AuthFailure.incomplete("the request has no Host header to verify the signature with");
        }
        int colon = host.lastIndexOf(':');
        return colon > 0 && host.indexOf(']') < colon ? host.substring(0, colon) : host;
    }

    private static SdkHttpMethod method(String name) {
        try {
            return SdkHttpMethod.fromValue(name.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw AuthFailure.incomplete("HTTP method " + name + " cannot be signed");
        }
    }

    private static Map<String, List<String>> query(String rawQuery) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        if (rawQuery == null || rawQuery.isEmpty()) {
            return out;
        }
        for (String pair : rawQuery.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String k = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String v = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            out.computeIfAbsent(k, x -> new ArrayList<>()).add(v);
        }
        return out;
    }
}
