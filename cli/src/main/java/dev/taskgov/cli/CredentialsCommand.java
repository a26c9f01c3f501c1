package dev.taskgov.cli;

import dev.taskgov.client.support.auth.ProfileFile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taskgov.core.events.EventCodec;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.ArrayList;
import java.util.List;

/** {@code taskgov credentials create|list|revoke}: access keys, kept by quota-service; admin only. */
@Command(name = "credentials", mixinStandardHelpOptions = true,
        description = "Access keys (id + secret) of principals with roles admin, viewer, team:<name>; admin only.",
        subcommands = {CredentialsCommand.Create.class, CredentialsCommand.ListKeys.class, CredentialsCommand.Revoke.class})
public class CredentialsCommand {

    @Command(name = "create", mixinStandardHelpOptions = true,
            description = "Create an access key for a principal; its secret is shown once (or written to the profile file).")
    static class Create extends AnswerCommand {
        @Option(names = "--principal", required = true, description = "Who the key belongs to, e.g. alice or team-a.")
        String principal;

        @Option(names = "--role", required = true, paramLabel = "ROLE",
                description = "admin, viewer or team:<name>; repeat for several.")
        List<String> roles = new ArrayList<>();

        @Option(names = "--description")
        String description;

        @Option(names = "--write-profile", paramLabel = "NAME",
                description = "Also store the key as section [NAME] of the profile file (--profile-file), instead of printing the secret.")
        String writeProfile;

        @Override
        protected int run() {
            ObjectNode request = EventCodec.mapper().createObjectNode();
            request.put("principal", principal);
            request.putArray("roles").addAll(roles.stream().map(r -> (JsonNode) EventCodec.mapper().getNodeFactory().textNode(r)).toList());
            if (description != null) request.put("description", description);
            JsonNode created = endpoints.quotaHttp().post("/credentials", request.toString());
            if (writeProfile != null) {
                try {
                    ProfileFile.write(endpoints.profileFile(), new ProfileFile.Credentials(writeProfile,
                            created.path("accessKeyId").asText(), created.path("secretAccessKey").asText()));
                } catch (java.io.UncheckedIOException e) {
                    throw CliException.failed(e.getMessage() + "; the key " + created.path("accessKeyId").asText()
                            + " exists: revoke it, or note its secret " + created.path("secretAccessKey").asText());
                }
                ((ObjectNode) created).remove("secretAccessKey");
                ((ObjectNode) created).put("profile", writeProfile);
                ((ObjectNode) created).put("profileFile", endpoints.profileFile().toAbsolutePath().toString());
            }
            if (printedAsData(created)) return 0;
            out().println("accessKeyId:     " + created.path("accessKeyId").asText());
            if (created.has("secretAccessKey")) {
                out().println("secretAccessKey: " + created.path("secretAccessKey").asText() + "   (shown once: store it now)");
            } else {
                out().println("stored as profile [" + writeProfile + "] in " + created.path("profileFile").asText());
            }
            out().println("principal:       " + created.path("principal").asText() + " " + created.path("roles"));
            return 0;
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "List access keys (never their secrets).")
    static class ListKeys extends AnswerCommand {
        @Override
        protected int run() {
            JsonNode keys = endpoints.quotaHttp().get("/credentials");
            if (printedAsData(keys)) return 0;
            Table t = new Table("ACCESS KEY", "PRINCIPAL", "ROLES", "STATUS", "CREATED", "BY");
            for (JsonNode k : keys.path("accessKeys")) {
                List<String> roles = new ArrayList<>();
                k.path("roles").forEach(r -> roles.add(r.asText()));
                t.row(k.path("accessKeyId").asText(), k.path("principal").asText(), String.join(",", roles),
                        k.path("status").asText(), k.path("createdAt").asText(), k.path("createdBy").asText());
            }
            if (t.isEmpty()) err().println("No access keys found.");
            else t.print(out());
            return 0;
        }
    }

    @Command(name = "revoke", mixinStandardHelpOptions = true, description = "Revoke an access key at once.")
    static class Revoke extends ServiceCommand {
        @Parameters(paramLabel = "ACCESS_KEY_ID")
        String accessKeyId;


        @Override
        protected int run() {
            JsonNode k = endpoints.quotaHttp().delete("/credentials/" + accessKeyId);
            out().println("revoked " + k.path("accessKeyId").asText() + " (" + k.path("principal").asText() + ")");
            return 0;
        }
    }
}
