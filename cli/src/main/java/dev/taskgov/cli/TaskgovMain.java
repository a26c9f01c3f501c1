package dev.taskgov.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;

import java.util.Arrays;

/**
 * The light way in: picocli straight from {@code main}, without booting Quarkus (the commands need no CDI;
 * the tests run them the same way). The {@code taskgov} wrapper starts this class on the Quarkus build's
 * class path, which saves the framework's start on every command (docs/benchmarks.md, "CLI start time");
 * {@code java -jar quarkus-run.jar} still works and behaves the same.
 */
public final class TaskgovMain {

    static {
        // picocli (4.7+) otherwise asks the class loader for Groovy's Closure on every start, to support closures in
        // annotations, which taskgov does not use; the class is absent, so the lookup opens and indexes all 165 jars
        // of the class path (6 without it; about a tenth of --help's CPU, docs/benchmarks.md "CLI start time").
        System.setProperty("picocli.disable.closures", "true");
    }

    private TaskgovMain() {
    }

    public static void main(String[] args) {
        // Libraries log through slf4j to JBoss LogManager, which must be the JDK's log manager before anything
        // logs (else it prints an error). Unconfigured, it shows no library log lines on this path (the Quarkus
        // launch shows their warnings); the commands say what failed themselves.
        System.setProperty("java.util.logging.manager", "org.jboss.logmanager.LogManager");
        System.exit(commandLine(args).execute(args));
    }

    /**
     * The command tree to run {@code args} with. picocli builds the model of every command it is given, by reflection,
     * before parsing a word: all of {@link TaskgovCommand}'s cost as much CPU as signing and sending a request
     * (docs/benchmarks.md, "CLI start time"). So when the first word names a subcommand, the tree holds
     * {@code taskgov} and that subcommand's branch only, which parses, runs and explains itself exactly as in the
     * whole tree; anything else ({@code --help}, no or an unknown subcommand, and {@code completion}, which reads the
     * whole tree) gets the whole tree.
     */
    static CommandLine commandLine(String... args) {
        Command top = TaskgovCommand.class.getAnnotation(Command.class);
        Class<?> branch = args.length == 0 ? null : Arrays.stream(top.subcommands())
                .filter(c -> c != CompletionCommand.class && names(c).contains(args[0])).findFirst().orElse(null);
        if (branch == null) return new CommandLine(new TaskgovCommand());
        CommandSpec spec = CommandSpec.wrapWithoutInspection(new TaskgovCommand())
                .name(top.name()).version(top.version()).mixinStandardHelpOptions(top.mixinStandardHelpOptions());
        spec.usageMessage().description(top.description());
        return new CommandLine(spec).addSubcommand(branch);
    }

    private static java.util.List<String> names(Class<?> command) {
        Command c = command.getAnnotation(Command.class);
        java.util.List<String> names = new java.util.ArrayList<>(Arrays.asList(c.aliases()));
        names.add(c.name());
        return names;
    }
}
