package dev.taskgov.service.support.db;

import dev.taskgov.service.support.PrivateFiles;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/**
 * Who may log in to taskgov's PostgreSQL and with which rights, for the local runtime's database and the tests' alike
 * (the same production path): every login needs its generated password (scram-sha-256, no {@code trust} line), and
 * each role has only what it needs. Plain JDBC, run by whoever starts the database, never by a service.
 * <ul>
 *   <li>{@value #SUPERUSER}: the cluster's superuser; only this class logs in as it, to provision.</li>
 *   <li>{@value #OWNER}: owns the database, its schema and tables; quota-service's Flyway migrates as it.</li>
 *   <li>{@value #QUOTA}: what quota-service runs as; its table rights are granted by the owner after each migration
 *       (quota-service's {@code db/migration/afterMigrate.sql}): no UPDATE or DELETE of audit rows, no change to
 *       an access key's principal or roles.</li>
 * </ul>
 */
public final class DatabaseRoles {

    public static final String SUPERUSER = "postgres";
    public static final String OWNER = "taskgov_owner";
    public static final String QUOTA = "taskgov_quota";
    public static final String DATABASE = "taskgov";

    /** Every login is by password, stored as a SCRAM verifier; nothing is trusted for its address or OS user. */
    static final String HBA = String.join("\n",
            "# Written by taskgov (dev.taskgov.local.DatabaseRoles): every connection proves its password.",
            "local all all scram-sha-256",
            "host all all 127.0.0.1/32 scram-sha-256",
            "host all all ::1/128 scram-sha-256",
            "");

    private static final SecureRandom RANDOM = new SecureRandom();

    private DatabaseRoles() {
    }

    /**
     * The roles' passwords from this owner-only properties file (role=password), made with fresh random passwords
     * when it or a role is missing; an existing password is kept, so a restart logs in as before.
     */
    public static Map<String, String> passwords(Path file) throws IOException {
        Properties stored = new Properties();
        if (Files.exists(file)) {
            stored.load(new StringReader(Files.readString(file)));
        }
        Map<String, String> passwords = new LinkedHashMap<>();
        boolean changed = false;
        for (String role : new String[] {SUPERUSER, OWNER, QUOTA}) {
            String password = stored.getProperty(role);
            if (password == null || password.isBlank()) {
                password = newPassword();
                changed = true;
            }
            passwords.put(role, password);
        }
        if (changed) {
            Files.createDirectories(file.getParent());
            StringBuilder content = new StringBuilder(
                    "# taskgov's PostgreSQL logins (role=password), generated at first start; readable by its owner only.\n");
            passwords.forEach((role, password) -> content.append(role).append('=').append(password).append('\n'));
            PrivateFiles.write(file, content.toString());
        }
        return passwords;
    }

    /** Fresh random passwords for every role, kept nowhere (a test database that lives as long as its JVM). */
    public static Map<String, String> newPasswords() {
        Map<String, String> passwords = new LinkedHashMap<>();
        for (String role : new String[] {SUPERUSER, OWNER, QUOTA}) {
            passwords.put(role, newPassword());
        }
        return passwords;
    }

    /**
     * Sets up (again: every statement is idempotent) the roles, their passwords, the database and who owns what, as
     * the superuser at {@code host:port}; with {@code hbaFile} (a cluster of this machine) it also replaces the
     * client authentication file with scram-sha-256 only and reloads it, which secures a cluster made with
     * {@code trust}.
     */
    public static void provision(String hostPort, Map<String, String> passwords, Path hbaFile) throws SQLException, IOException {
        String base = "jdbc:postgresql://" + hostPort + "/";
        try (Connection c = DriverManager.getConnection(base + "postgres", SUPERUSER, passwords.get(SUPERUSER));
             Statement s = c.createStatement()) {
            s.execute("set password_encryption = 'scram-sha-256'");
            s.execute("alter role " + SUPERUSER + " password " + literal(passwords.get(SUPERUSER)));
            ensureRole(c, OWNER, passwords.get(OWNER));
            ensureRole(c, QUOTA, passwords.get(QUOTA));
            boolean exists;
            try (PreparedStatement q = c.prepareStatement("select 1 from pg_database where datname = ?")) {
                q.setString(1, DATABASE);
                try (ResultSet r = q.executeQuery()) {
                    exists = r.next();
                }
            }
            s.execute(exists ? "alter database " + DATABASE + " owner to " + OWNER
                    : "create database " + DATABASE + " owner " + OWNER);
            // Only the named roles reach taskgov's database; PUBLIC's default CONNECT and TEMP go.
            s.execute("revoke all on database " + DATABASE + " from public");
            s.execute("grant connect on database " + DATABASE + " to " + QUOTA);
            if (hbaFile != null) {
                PrivateFiles.write(hbaFile, HBA);
                s.execute("select pg_reload_conf()");
            }
        }
        try (Connection c = DriverManager.getConnection(base + DATABASE, SUPERUSER, passwords.get(SUPERUSER));
             Statement s = c.createStatement()) {
            s.execute("alter schema public owner to " + OWNER);
            s.execute("revoke all on schema public from public");
            s.execute("grant usage on schema public to " + QUOTA);
            // Tables made before the owner role existed (by the superuser) move to it, so that migrations run as it.
            s.execute("do $$ declare r record; begin"
                    + " for r in select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace"
                    + " where n.nspname = 'public' and c.relkind in ('r', 'p', 'v', 'm') and pg_get_userbyid(c.relowner) <> '" + OWNER + "'"
                    + " loop execute format('alter table public.%I owner to " + OWNER + "', r.relname); end loop;"
                    + " for r in select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace"
                    + " where n.nspname = 'public' and c.relkind = 'S' and pg_get_userbyid(c.relowner) <> '" + OWNER + "'"
                    + " and not exists (select 1 from pg_depend d where d.objid = c.oid and d.deptype in ('a', 'i'))"
                    + " loop execute format('alter sequence public.%I owner to " + OWNER + "', r.relname); end loop;"
                    + " end $$");
        }
    }

    /** A JDBC URL of taskgov's database on {@code host:port}. */
    public static String url(String hostPort) {
        return "jdbc:postgresql://" + hostPort + "/" + DATABASE;
    }

    private static void ensureRole(Connection c, String role, String password) throws SQLException {
        boolean exists;
        try (PreparedStatement q = c.prepareStatement("select 1 from pg_roles where rolname = ?")) {
            q.setString(1, role);
            try (ResultSet r = q.executeQuery()) {
                exists = r.next();
            }
        }
        try (Statement s = c.createStatement()) {
            s.execute((exists ? "alter role " : "create role ") + role
                    + " login nosuperuser nocreatedb nocreaterole noreplication nobypassrls password " + literal(password));
        }
    }

    private static String literal(String value) {
        return "'" + value.replace("'", "''") + "'";
    }

    private static String newPassword() {
        byte[] bytes = new byte[24];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
