package dev.taskgov.local;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import dev.taskgov.core.events.KafkaAccess;
import dev.taskgov.service.support.PrivateFiles;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialAlteration;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AccessControlEntryFilter;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourcePatternFilter;
import org.apache.kafka.common.resource.ResourceType;

/**
 * Gives a {@link SecureBroker} its principals and ACLs, as its administrator: every service's SCRAM credential
 * and {@link KafkaAccess#serviceGrants grants}, the shared topics, and for each team named its credential, its
 * {@link KafkaAccess#teamGrants grants} and its submission topic. Everything is an upsert, so running it at every
 * start (or again for a new team) is safe; a service's ACL that the grants no longer declare is deleted.
 *
 * <p>Usage: {@code KafkaProvisioning <broker-dir> <bootstrap> <partitions> [team ...]}. Besides the credentials
 * file, it writes a client configuration per team and for the administrator under {@code <broker-dir>/clients/}:
 * {@code <principal>.properties} (Java clients, {@code --command-config}) and {@code <principal>.kcat.conf}
 * ({@code kcat -F}).
 */
public final class KafkaProvisioning {

    private static final int SCRAM_ITERATIONS = 8192;

    private KafkaProvisioning() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 3) {
            System.err.println("usage: KafkaProvisioning <broker-dir> <bootstrap> <partitions> [team ...]");
            System.exit(2);
        }
        Path dir = Path.of(args[0]);
        List<String> teams = List.of(args).subList(3, args.length);
        try {
            teams.forEach(KafkaAccess::requireTeamName);
        } catch (IllegalArgumentException e) {
            System.err.println("KafkaProvisioning: " + e.getMessage());
            System.exit(2);
        }
        provision(dir, args[1], Integer.parseInt(args[2]), teams);
    }

    static void provision(Path dir, String bootstrap, int partitions, List<String> teams) throws Exception {
        List<String> principals = new ArrayList<>();
        teams.forEach(team -> principals.add(KafkaAccess.teamPrincipal(team)));
        SecureBroker.credentials(dir); // the administrator's, the controller's, the services'
        Properties credentials = SecureBroker.credentials(dir, principals);
        try (Admin admin = admin(dir, bootstrap)) {
            List<String> topics = CreateTopics.catalog();
            teams.forEach(team -> topics.addAll(KafkaAccess.teamTopics(team, CreateTopics::name)));
            CreateTopics.create(admin, partitions, topics);

            List<UserScramCredentialAlteration> users = new ArrayList<>();
            List<AclBinding> acls = new ArrayList<>();
            for (String service : KafkaAccess.SERVICES) users.add(upsert(service, credentials));
            KafkaAccess.serviceGrants(CreateTopics::name).forEach(g -> acls.add(binding(g)));
            for (String team : teams) {
                users.add(upsert(KafkaAccess.teamPrincipal(team), credentials));
                KafkaAccess.teamGrants(team, CreateTopics::name).forEach(g -> acls.add(binding(g)));
            }
            admin.alterUserScramCredentials(users).all().get(60, TimeUnit.SECONDS);
            admin.createAcls(acls).all().get(60, TimeUnit.SECONDS);
            int revoked = revokeUndeclaredServiceGrants(admin, acls);
            System.out.println("kafka principals: " + KafkaAccess.SERVICES.size() + " services, " + teams.size()
                    + " teams; " + acls.size() + " ACLs" + (revoked == 0 ? "" : "; " + revoked + " service ACL(s) no longer granted, deleted"));
        }
        Path clients = Files.createDirectories(dir.resolve("clients"));
        List<String> withClientFiles = new ArrayList<>(List.of(KafkaAccess.ADMIN));
        withClientFiles.addAll(principals);
        for (String principal : withClientFiles) {
            String password = credentials.getProperty(principal);
            StringBuilder java = new StringBuilder("# Kafka client settings of " + principal + " (generated; keep private)\n");
            java.append("bootstrap.servers=").append(bootstrap).append('\n');
            KafkaAccess.clientProperties(principal, password).forEach((k, v) -> java.append(k).append('=').append(v).append('\n'));
            PrivateFiles.write(clients.resolve(principal + ".properties"), java.toString());
            PrivateFiles.write(clients.resolve(principal + ".kcat.conf"), String.join("\n",
                    "# kcat -F settings of " + principal + " (generated; keep private)",
                    "bootstrap.servers=" + bootstrap,
                    "security.protocol=SASL_PLAINTEXT",
                    "sasl.mechanisms=PLAIN", // see CredentialsFilePlainCallback
                    "sasl.username=" + principal,
                    "sasl.password=" + password,
                    ""));
        }
    }

    /**
     * An administrator's client of the broker in {@code dir}; without a credentials file there (an external broker
     * that the local runtime did not set up), a client without login.
     */
    static Admin admin(Path dir, String bootstrap) throws java.io.IOException {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "60000");
        if (Files.exists(dir.resolve(SecureBroker.CREDENTIALS))) {
            props.putAll(KafkaAccess.clientProperties(KafkaAccess.ADMIN,
                    SecureBroker.credentials(dir).getProperty(KafkaAccess.ADMIN)));
        }
        return Admin.create(props);
    }

    /**
     * Deletes every ACL of a service principal that {@link KafkaAccess#serviceGrants} no longer declares, so that a right
     * taken away from a service (admission-service's WRITE on the preempted topic, say) is gone from a broker provisioned
     * before. Teams' grants are left alone: a team provisioned earlier keeps its topic whether or not it is named now.
     */
    private static int revokeUndeclaredServiceGrants(Admin admin, List<AclBinding> declared) throws Exception {
        java.util.Set<AclBinding> granted = new java.util.HashSet<>(declared);
        List<AclBindingFilter> stale = new ArrayList<>();
        for (String service : KafkaAccess.SERVICES) {
            AclBindingFilter ofService = new AclBindingFilter(ResourcePatternFilter.ANY,
                    new AccessControlEntryFilter("User:" + service, null, AclOperation.ANY, AclPermissionType.ANY));
            for (AclBinding b : admin.describeAcls(ofService).values().get(60, TimeUnit.SECONDS)) {
                if (!granted.contains(b)) stale.add(b.toFilter());
            }
        }
        if (!stale.isEmpty()) admin.deleteAcls(stale).all().get(60, TimeUnit.SECONDS);
        return stale.size();
    }

    private static UserScramCredentialUpsertion upsert(String principal, Properties credentials) {
        return new UserScramCredentialUpsertion(principal,
                new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256, SCRAM_ITERATIONS), credentials.getProperty(principal));
    }

    private static AclBinding binding(KafkaAccess.Grant g) {
        ResourceType type = switch (g.resourceType()) {
            case TOPIC -> ResourceType.TOPIC;
            case GROUP -> ResourceType.GROUP;
            case TRANSACTIONAL_ID -> ResourceType.TRANSACTIONAL_ID;
        };
        PatternType pattern = g.patternType() == KafkaAccess.PatternType.LITERAL ? PatternType.LITERAL : PatternType.PREFIXED;
        AclOperation operation = switch (g.operation()) {
            case READ -> AclOperation.READ;
            case WRITE -> AclOperation.WRITE;
            case CREATE -> AclOperation.CREATE;
            case DESCRIBE -> AclOperation.DESCRIBE;
            case DESCRIBE_CONFIGS -> AclOperation.DESCRIBE_CONFIGS;
        };
        return new AclBinding(new ResourcePattern(type, g.name(), pattern),
                new AccessControlEntry("User:" + g.principal(), "*", operation, AclPermissionType.ALLOW));
    }
}
