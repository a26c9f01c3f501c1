package dev.taskgov.quota.api;

import com.fasterxml.jackson.databind.JsonNode;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * {@code MaxResults} (1..100, default 10) and {@code NextToken} of List operations. The token is
 * the offset of the next page, opaque to clients.
 */
public record Paging(int offset, int maxResults) {

    public static Paging from(JsonNode request) {
        Integer max = RequestFields.optionalInt(request, "MaxResults", 1, 100);
        String token = RequestFields.optionalString(request, "NextToken", null, 8192);
        int offset = 0;
        if (token != null) {
            try {
                String decoded = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
                if (!decoded.startsWith("offset:")) {
                    throw new IllegalArgumentException();
                }
                offset = Integer.parseInt(decoded.substring("offset:".length()));
                if (offset < 0) {
                    throw new IllegalArgumentException();
                }
            } catch (IllegalArgumentException e) {
                throw AwsApiException.validation("NextToken: is not a token this service returned, was '" + token + "'");
            }
        }
        return new Paging(offset, max == null ? 10 : max);
    }

    /** The token of the page after this one, or null when {@code returned} rows were the last. */
    public String nextToken(int returned, long total) {
        long next = (long) offset + returned;
        if (returned == 0 || next >= total) {
            return null;
        }
        return Base64.getUrlEncoder().withoutPadding()
                .encodeToString(("offset:" + next).getBytes(StandardCharsets.UTF_8));
    }
}
