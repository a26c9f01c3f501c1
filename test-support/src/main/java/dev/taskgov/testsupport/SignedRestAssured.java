package dev.taskgov.testsupport;

import dev.taskgov.client.support.auth.RequestSigner;
import io.restassured.RestAssured;
import io.restassured.filter.Filter;
import io.restassured.filter.FilterContext;
import io.restassured.response.Response;
import io.restassured.specification.FilterableRequestSpecification;
import io.restassured.specification.FilterableResponseSpecification;
import io.restassured.specification.RequestSpecification;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/** REST Assured requests signed with SigV4 by a test key, as taskgov's CLI signs them. */
public final class SignedRestAssured {

    private SignedRestAssured() {
    }

    /**
     * A key published on the credentials topic, once the service under test (REST Assured's default port) knows
     * it: it reads the topic as it changes, so the key counts a moment after it is published. {@code probePath} is
     * any GET path of the service that checks signatures.
     */
    public static TestCredentials.Key keyOnTopic(String probePath, String principal, String... roles) {
        return awaitKnown(TestCredentials.onTopic(principal, roles), probePath);
    }

    /** The key, once the service under test (a new application of the same JVM, say) has read it from the topic. */
    public static TestCredentials.Key awaitKnown(TestCredentials.Key key, String probePath) {
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(60))
                .until(() -> !"UnrecognizedClientException".equals(given(key).get(probePath).getHeader("x-amzn-ErrorType")));
        return key;
    }

    /** {@code given()} whose request is signed with this key just before it is sent. */
    public static RequestSpecification given(TestCredentials.Key key) {
        return RestAssured.given().filter(new SigningFilter(key));
    }

    private record SigningFilter(TestCredentials.Key key) implements Filter {
        @Override
        public Response filter(FilterableRequestSpecification request, FilterableResponseSpecification response,
                               FilterContext context) {
            Object body = request.getBody();
            byte[] bytes = body == null ? new byte[0]
                    : body instanceof byte[] b ? b : body.toString().getBytes(StandardCharsets.UTF_8);
            Map<String, String> signedHeaders = new LinkedHashMap<>();
            if (request.getContentType() != null && body != null) {
                signedHeaders.put("Content-Type", request.getContentType());
            }
            new RequestSigner(key.accessKeyId(), key.secret())
                    .sign(request.getMethod(), URI.create(request.getURI()), signedHeaders, bytes)
                    .forEach((name, value) -> {
                        if (!name.equalsIgnoreCase("Content-Type")) {
                            request.header(name, value);
                        }
                    });
            return context.next(request, response);
        }
    }
}
