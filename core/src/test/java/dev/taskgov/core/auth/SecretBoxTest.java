package dev.taskgov.core.auth;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SecretBoxTest {

    private final SecretBox box = SecretBox.of(SecretBox.newMasterKey());
    private final String id = AccessKey.newKeyId();
    private final String secret = AccessKey.newSecret();

    @Test
    void aSealedSecretOpensForItsOwnPrincipalAndRolesInAnyOrder() {
        String sealed = box.encrypt(id, "alice", List.of("viewer", "team:team-1"), secret);

        assertThat(SecretBox.isBound(sealed)).isTrue();
        assertThat(box.decrypt(id, "alice", List.of("team:team-1", "viewer"), sealed)).isEqualTo(secret);
    }

    @Test
    void anotherRolePrincipalOrKeyIdDoesNotOpenIt() {
        String sealed = box.encrypt(id, "alice", List.of("viewer"), secret);

        assertThatThrownBy(() -> box.decrypt(id, "alice", List.of("admin"), sealed))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("principal or roles were changed");
        assertThatThrownBy(() -> box.decrypt(id, "alice", List.of("viewer", "admin"), sealed))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> box.decrypt(id, "bob", List.of("viewer"), sealed))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> box.decrypt(AccessKey.newKeyId(), "alice", List.of("viewer"), sealed))
                .isInstanceOf(IllegalStateException.class);
        // Moving text between fields must not give the same associated data.
        assertThatThrownBy(() -> box.decrypt(id, "alicev", List.of("iewer"), sealed))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void anotherMasterKeyDoesNotOpenIt() {
        String sealed = box.encrypt(id, "alice", List.of("viewer"), secret);

        assertThatThrownBy(() -> SecretBox.of(SecretBox.newMasterKey()).decrypt(id, "alice", List.of("viewer"), sealed))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("another master key");
    }

    @Test
    void theKeyIdOnlyFormatNeverAuthenticatesButCanBeResealed() {
        String old = box.encryptKeyIdOnly(id, secret);

        assertThat(SecretBox.isBound(old)).isFalse();
        assertThatThrownBy(() -> box.decrypt(id, "alice", List.of("admin"), old))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("sealed to its key id only");
        String resealed = box.encrypt(id, "alice", List.of("viewer"), box.decryptKeyIdOnly(id, old));
        assertThat(box.decrypt(id, "alice", List.of("viewer"), resealed)).isEqualTo(secret);
    }
}
