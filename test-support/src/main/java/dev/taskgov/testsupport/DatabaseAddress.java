package dev.taskgov.testsupport;

/** How to reach a PostgreSQL database over JDBC. */
public record DatabaseAddress(String jdbcUrl, String username, String password, Source source) {
}
