package dev.taskgov.core.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;

/**
 * The hash chain of the audit trail. Records are chained per service (the record's {@code service}): each record of a
 * chain has a sequence number (1, 2, ...) and carries the hash of the one before it; its own hash covers that previous
 * hash, its sequence number and every stored field. Per service, because each service's records are written by its
 * own instances (or, for services without a database, stored from the audit topic), so writers of different services
 * never wait on each other; one lock per chain orders concurrent writers of the same service.
 *
 * <p>{@link #verify} walks one chain in sequence order and names its first broken link: a record whose fields no
 * longer match its hash (edited), a missing sequence number (deleted), a record whose previous hash is not its
 * predecessor's (inserted, or the predecessor edited together with its hash), records missing after the last one
 * (the head says more were written).
 */
public final class AuditChain {

    /** The previous hash of a chain's first record. */
    public static final String GENESIS = "0".repeat(64);

    private AuditChain() {
    }

    /** One stored record with its place in its chain, as the verifier reads it. */
    public record Link(String chain, long seq, String prevHash, String hash, String eventId, String at, String service,
                       String principal, String operation, String target, String outcome, String beforeJson,
                       String afterJson) {
    }

    /** The first broken link of a chain (null fields when the chain is intact). */
    public record Result(String chain, long records, long headSeq, String headHash, Long brokenAt, String brokenEventId,
                         String problem) {
        public boolean intact() {
            return problem == null;
        }
    }

    /**
     * The hash of a record: SHA-256 over the previous hash, the sequence number and each field, every value prefixed
     * by its length so that no two different records share an input ({@code at} is the ISO-8601 instant as stored,
     * microseconds).
     */
    public static String hash(String prevHash, long seq, String eventId, String at, String service, String principal,
                              String operation, String target, String outcome, String beforeJson, String afterJson) {
        StringBuilder sb = new StringBuilder(256);
        for (String v : new String[]{prevHash, Long.toString(seq), eventId, at, service, principal, operation, target,
                outcome, beforeJson, afterJson}) {
            if (v == null) {
                sb.append("-1:");
            } else {
                sb.append(v.length()).append(':').append(v);
            }
            sb.append(';');
        }
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(sb.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }

    public static String hash(Link l) {
        return hash(l.prevHash(), l.seq(), l.eventId(), l.at(), l.service(), l.principal(), l.operation(), l.target(),
                l.outcome(), l.beforeJson(), l.afterJson());
    }

    /** Checks one chain given in sequence order against its head (the last sequence number and hash written). */
    public static Result verify(String chain, Iterable<Link> links, long headSeq, String headHash) {
        long expected = 1;
        String prev = GENESIS;
        long count = 0;
        for (Link l : links) {
            count++;
            if (l.seq() > expected) {
                return broken(chain, count, headSeq, headHash, expected, null, "record #" + expected
                        + (l.seq() - expected > 1 ? " to #" + (l.seq() - 1) : "") + " missing (deleted): #"
                        + (expected - 1) + " is followed by #" + l.seq() + " (event " + l.eventId() + ")");
            }
            if (l.seq() < expected) {
                return broken(chain, count, headSeq, headHash, l.seq(), l.eventId(), "record #" + l.seq()
                        + " appears twice (inserted): event " + l.eventId());
            }
            if (!hash(l).equals(l.hash())) {
                return broken(chain, count, headSeq, headHash, l.seq(), l.eventId(), "record #" + l.seq() + " (event "
                        + l.eventId() + ") was edited: its fields no longer match its hash");
            }
            if (!Objects.equals(prev, l.prevHash())) {
                return broken(chain, count, headSeq, headHash, l.seq(), l.eventId(), "record #" + l.seq() + " (event "
                        + l.eventId() + ") does not follow #" + (l.seq() - 1) + ": its previous hash is not #"
                        + (l.seq() - 1) + "'s hash (a record inserted, or #" + (l.seq() - 1) + " rewritten with a new hash)");
            }
            prev = l.hash();
            expected++;
        }
        long last = expected - 1;
        if (headSeq > last) {
            return broken(chain, count, headSeq, headHash, last + 1, null, "record #" + (last + 1)
                    + (headSeq > last + 1 ? " to #" + headSeq : "") + " missing (deleted): the chain's head says #"
                    + headSeq + " was written, the last record is #" + last);
        }
        if (headSeq < last || (headHash != null && !headHash.equals(prev))) {
            return broken(chain, count, headSeq, headHash, last, null, "the chain's head (#" + headSeq
                    + ") does not match its last record (#" + last + "): records inserted, or the head rewritten");
        }
        return new Result(chain, count, headSeq, headHash, null, null, null);
    }

    private static Result broken(String chain, long count, long headSeq, String headHash, long at, String eventId,
                                 String problem) {
        return new Result(chain, count, headSeq, headHash, at, eventId, problem);
    }
}
