package dev.taskgov.core.auth;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class AuditChainTest {

    private static List<AuditChain.Link> chain(int n) {
        List<AuditChain.Link> links = new ArrayList<>();
        String prev = AuditChain.GENESIS;
        for (int seq = 1; seq <= n; seq++) {
            String at = Instant.parse("2026-12-01T10:00:00Z").plusSeconds(seq).toString();
            String hash = AuditChain.hash(prev, seq, "e" + seq, at, "svc", "alice", "Op", "t" + seq, "Allowed", null, null);
            links.add(new AuditChain.Link("svc", seq, prev, hash, "e" + seq, at, "svc", "alice", "Op", "t" + seq, "Allowed", null, null));
            prev = hash;
        }
        return links;
    }

    private static AuditChain.Result verify(List<AuditChain.Link> links, long headSeq, String headHash) {
        return AuditChain.verify("svc", links, headSeq, headHash);
    }

    @Test
    void anIntactChainVerifies() {
        List<AuditChain.Link> c = chain(5);
        AuditChain.Result r = verify(c, 5, c.get(4).hash());
        assertThat(r.intact()).isTrue();
        assertThat(r.records()).isEqualTo(5);
    }

    @Test
    void anEditedRecordIsNamed() {
        List<AuditChain.Link> c = chain(5);
        AuditChain.Link l = c.get(2);
        c.set(2, new AuditChain.Link(l.chain(), l.seq(), l.prevHash(), l.hash(), l.eventId(), l.at(), l.service(), "mallory",
                l.operation(), l.target(), l.outcome(), null, null));
        AuditChain.Result r = verify(c, 5, c.get(4).hash());
        assertThat(r.brokenAt()).isEqualTo(3);
        assertThat(r.brokenEventId()).isEqualTo("e3");
        assertThat(r.problem()).contains("edited");
    }

    @Test
    void anEditWithARecomputedHashBreaksTheNextLink() {
        List<AuditChain.Link> c = chain(5);
        AuditChain.Link l = c.get(2);
        String h = AuditChain.hash(l.prevHash(), 3, "e3", l.at(), "svc", "mallory", "Op", "t3", "Allowed", null, null);
        c.set(2, new AuditChain.Link("svc", 3, l.prevHash(), h, "e3", l.at(), "svc", "mallory", "Op", "t3", "Allowed", null, null));
        AuditChain.Result r = verify(c, 5, c.get(4).hash());
        assertThat(r.brokenAt()).isEqualTo(4);
        assertThat(r.problem()).contains("does not follow #3");
    }

    @Test
    void aDeletedRecordIsNamedInTheMiddleAndAtTheEnd() {
        List<AuditChain.Link> c = chain(5);
        String head = c.get(4).hash();
        c.remove(1);
        AuditChain.Result r = verify(c, 5, head);
        assertThat(r.brokenAt()).isEqualTo(2);
        assertThat(r.problem()).contains("record #2 missing (deleted)");

        List<AuditChain.Link> d = chain(5);
        d.remove(4);
        AuditChain.Result end = verify(d, 5, head);
        assertThat(end.brokenAt()).isEqualTo(5);
        assertThat(end.problem()).contains("record #5 missing (deleted)");
    }

    @Test
    void escapingCoversEveryControlCharacterAndIsIdempotent() {
        for (char c = 0; c < 0x20; c++) {
            String e = SafeText.escape("a" + c + "b");
            assertThat(SafeText.isSafe(e)).as("char %d", (int) c).isTrue();
            assertThat(SafeText.escape(e)).isEqualTo(e);
        }
        assertThat(SafeText.escape("x\u007F\u009B\u202E")).isEqualTo("x\\x7F\\x9B\\u202E");
        assertThat(SafeText.escape("a\nadmin Allowed\u001B[2J\u0000")).isEqualTo("a\\nadmin Allowed\\x1B[2J\\x00");
        AuditEvent ev = AuditEvent.of(Instant.parse("2026-12-01T10:00:00.123456789Z"), "s", null, "Op\n", "/p\u0000",
                "Refused\r", null, null);
        assertThat(ev.target()).isEqualTo("/p\\x00");
        assertThat(ev.at()).isEqualTo(Instant.parse("2026-12-01T10:00:00.123456Z"));
        assertThat(AuditEvent.fromJson(ev.toJson())).isEqualTo(ev);
    }
}
