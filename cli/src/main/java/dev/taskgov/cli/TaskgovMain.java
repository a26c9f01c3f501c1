package dev.taskgov.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;

import java.util.Arrays;

/**
 * The light way in: picocli straight from {@code main}, without booting Quarkus (the commands need no CDI;
 * the tests run them the same way). The {@code taskgov} wrapper starts this class on the Quarkus build's
 * jars merged into one ({@code taskgov-cli-direct.jar}), which saves the framework's start on every command
 * (docs/benchmarks.md, "CLI start time");
 * {@code java -jar quarkus-run.jar} still works and behaves the same.
 */
public final class TaskgovMain {

    static {
        // picocli (4.7+) otherwise asks the class loader for Groovy's Closure on every start, to support closures in
        // annotations, which taskgov does not use; the class is absent, so the lookup walks the whole class path
        // (when it was 165 jars, about a tenth of --help's CPU, docs/benchmarks.md "CLI start time").
        System.setProperty("picocli.disable.closures", "true");
    }

    private TaskgovMain() {
    }

    public static void main(String[] args) {
        quietLibraryLogging();
        System.exit(commandLine(args).execute(args));
    }

    /**
     * Logging as the direct start needs it, set before anything logs (the startup training sets it too, so the archive
     * holds the classes this path loads). Libraries log through slf4j: on this path to slf4j's no-op provider, named
     * explicitly, because looking providers up walks the whole class path, and the JBoss LogManager
     * that slf4j would find starts Quarkus' log buffering, which only a Quarkus start ever prints; together about a
     * tenth of {@code get workloads}' CPU (docs/benchmarks.md, "CLI start time"). Either way no library log line is
     * shown here (the Quarkus launch shows their warnings); the commands say what failed themselves.
     * {@code slf4j.internal.verbosity} keeps slf4j from announcing the provider on stderr. The JDK's own loggers (its
     * platform loggers, e.g. the HTTP client's) go to {@link CliLoggerFinder}, which shows warnings and errors; a library
     * that logs through java.util.logging itself would still reach the JBoss LogManager, which must then be the JDK's log
     * manager before anything logs (else it prints an error).
     */
    public static void quietLibraryLogging() {
        System.setProperty("slf4j.provider", "org.slf4j.helpers.NOP_FallbackServiceProvider");
        System.setProperty("slf4j.internal.verbosity", "WARN");
        System.setProperty("java.util.logging.manager", "org.jboss.logmanager.LogManager");
    }

    /**
     * The command tree to run {@code args} with. picocli builds the model of every command it is given, by reflection,
     * before parsing a word: all of {@link TaskgovCommand}'s cost as much CPU as signing and sending a request
     * (docs/benchmarks.md, "CLI start time"). So when the first word names a subcommand, the tree holds
     * {@code taskgov} and that subcommand's branch only, and when that subcommand only groups others (as {@code get}
     * and {@code quota} do) and the second word names one of them, that one only: {@code taskgov quota list} builds
     * {@code taskgov}, {@code quota} and {@code list}. Each parses, runs and explains itself exactly as in the whole
     * tree. {@code taskgov --help} lists each subcommand by what its {@code @Command} says of itself (name, aliases,
     * header, description), which is all that help shows of them, without building their models. Anything else (no or
     * an unknown subcommand, and {@code completion}, which reads the whole tree) gets the whole tree; a group followed
     * by anything but one of its subcommands gets its whole branch.
     */
    static CommandLine commandLine(String... args) {
        if (args.length == 1 && (args[0].equals("--help") || args[0].equals("-h"))) {
            CommandLine help = new CommandLine(container(new TaskgovCommand()));
            for (Class<?> sub : TaskgovCommand.class.getAnnotation(Command.class).subcommands()) help.addSubcommand(summary(sub));
            return help;
        }
        Class<?> branch = args.length == 0 ? null : subcommandNamed(TaskgovCommand.class, args[0]);
        if (branch == null || branch == CompletionCommand.class) return new CommandLine(new TaskgovCommand());
        return new CommandLine(container(new TaskgovCommand())).addSubcommand(pruned(branch, args, 1));
    }

    /** A subcommand as its parent's help lists it, from its {@code @Command} alone: never run or parsed with. */
    private static CommandSpec summary(Class<?> command) {
        Command c = command.getAnnotation(Command.class);
        CommandSpec spec = CommandSpec.create().name(c.name()).aliases(c.aliases());
        spec.usageMessage().header(c.header()).description(c.description()).hidden(c.hidden());
        return spec;
    }

    /** {@code command}'s branch for the words from {@code next} on: a group with only the subcommand they name. */
    private static Object pruned(Class<?> command, String[] args, int next) {
        Class<?> named = args.length > next && isGroup(command) ? subcommandNamed(command, args[next]) : null;
        if (named == null) return command;
        CommandLine group = new CommandLine(container(newInstance(command)));
        return group.addSubcommand(pruned(named, args, next + 1));
    }

    /**
     * A command's model without its subcommands, for a caller to add the one it needs: what its {@code @Command}
     * says of itself (name, aliases, version, help options, description). Only for commands with no options,
     * parameters or mixins of their own ({@link #isGroup}), whose whole model this is.
     */
    private static CommandSpec container(Object command) {
        Command c = command.getClass().getAnnotation(Command.class);
        CommandSpec spec = CommandSpec.wrapWithoutInspection(command).name(c.name()).aliases(c.aliases())
                .version(c.version()).mixinStandardHelpOptions(c.mixinStandardHelpOptions());
        spec.usageMessage().description(c.description());
        return spec;
    }

    /** A command that only groups others: subcommands, and no fields (so no options, parameters or mixins). */
    private static boolean isGroup(Class<?> command) {
        return command.getAnnotation(Command.class).subcommands().length > 0 && command.getDeclaredFields().length == 0
                && command.getSuperclass() == Object.class;
    }

    private static Class<?> subcommandNamed(Class<?> command, String word) {
        return Arrays.stream(command.getAnnotation(Command.class).subcommands())
                .filter(c -> names(c).contains(word)).findFirst().orElse(null);
    }

    private static Object newInstance(Class<?> command) {
        try {
            return command.getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot create " + command.getName(), e);
        }
    }

    private static java.util.List<String> names(Class<?> command) {
        Command c = command.getAnnotation(Command.class);
        java.util.List<String> names = new java.util.ArrayList<>(Arrays.asList(c.aliases()));
        names.add(c.name());
        return names;
    }
}
