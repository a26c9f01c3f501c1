package dev.taskgov.testsupport;

import java.util.Map;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * Points a {@code @QuarkusTest} application's default datasource at this JVM's shared real PostgreSQL
 * ({@link SharedPostgres}), as its app role, with Flyway as the owner role. Use: {@code @WithTestResource(PostgresTestResource.class)}.
 *
 * <p>The database outlives the application (one per JVM), so {@link #stop()} leaves it running.
 */
public class PostgresTestResource implements QuarkusTestResourceLifecycleManager {

    @Override
    public Map<String, String> start() {
        DatabaseAddress database = SharedPostgres.address();
        DatabaseAddress owner = SharedPostgres.owner();
        // The service runs as its app role and migrates as the owner role, as deployed.
        return Map.of(
                "quarkus.datasource.jdbc.url", database.jdbcUrl(),
                "quarkus.datasource.username", database.username(),
                "quarkus.datasource.password", database.password(),
                "quarkus.flyway.username", owner.username(),
                "quarkus.flyway.password", owner.password());
    }

    @Override
    public void stop() {
        // The database is shared by every test of this JVM; SharedPostgres stops it when the JVM exits.
    }
}
