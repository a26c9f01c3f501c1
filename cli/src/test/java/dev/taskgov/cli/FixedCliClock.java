package dev.taskgov.cli;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;

/** Fixes the commands' clock at {@link #NOW} for a test class (stable ages in tables), and gives the system clock back after. */
final class FixedCliClock implements BeforeAllCallback, AfterAllCallback {

    static final Instant NOW = Instant.parse("2026-11-30T10:05:00Z");

    @Override
    public void beforeAll(ExtensionContext context) {
        CliCommand.clock = Clock.fixed(NOW, ZoneOffset.UTC);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        CliCommand.clock = Clock.systemUTC();
    }
}
