package dev.taskgov.cli;

import picocli.CommandLine.Mixin;

/** A command that speaks to the platform: its services' addresses, its Kafka login and its key ({@link Endpoints}). */
abstract class ServiceCommand extends CliCommand {

    @Mixin
    Endpoints endpoints;
}
