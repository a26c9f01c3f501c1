package dev.taskgov.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.util.HashSet;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The command tree {@code taskgov} runs with: a named subcommand's branch only, which behaves as in the whole tree. */
class TaskgovMainTest {

    private final CommandLine whole = new CommandLine(new TaskgovCommand());

    @Test
    void aNamedSubcommandGetsItsBranchOnlyWhichExplainsItselfAsInTheWholeTree() {
        for (Map.Entry<String, CommandLine> sub : whole.getSubcommands().entrySet()) {
            CommandLine tree = TaskgovMain.commandLine(sub.getKey(), "--some-flag");
            if (sub.getKey().equals("completion")) {
                assertThat(tree.getSubcommands()).as("completion reads the whole tree").hasSameSizeAs(whole.getSubcommands());
                continue;
            }
            assertThat(new HashSet<>(tree.getSubcommands().values())).as(sub.getKey()).hasSize(1);
            sameEverywhere(sub.getValue(), tree.getSubcommands().get(sub.getKey()));
        }
    }

    @Test
    void aGroupFollowedByOneOfItsSubcommandsHoldsThatOneOnlyWhichExplainsItselfAsInTheWholeTree() {
        int pruned = 0;
        for (Map.Entry<String, CommandLine> group : whole.getSubcommands().entrySet()) {
            for (Map.Entry<String, CommandLine> sub : group.getValue().getSubcommands().entrySet()) {
                CommandLine tree = TaskgovMain.commandLine(group.getKey(), sub.getKey(), "--some-flag");
                CommandLine inBranch = tree.getSubcommands().get(group.getKey());
                assertThat(new HashSet<>(tree.getSubcommands().values())).as(group.getKey()).hasSize(1);
                assertThat(inBranch.getCommandSpec().qualifiedName()).isEqualTo(group.getValue().getCommandSpec().qualifiedName());
                assertThat(inBranch.getCommandSpec().aliases()).isEqualTo(group.getValue().getCommandSpec().aliases());
                if (new HashSet<>(inBranch.getSubcommands().values()).size() == 1) pruned++;
                else assertThat(inBranch.getSubcommands().keySet()).as("a group with options of its own keeps its branch")
                        .isEqualTo(group.getValue().getSubcommands().keySet());
                sameEverywhere(sub.getValue(), inBranch.getSubcommands().get(sub.getKey()));
            }
        }
        assertThat(pruned).as("get, describe and quota hold one subcommand each").isGreaterThanOrEqualTo(4 + 2 + 5);
        assertThat(TaskgovMain.commandLine("get", "--help").getSubcommands().get("get").getSubcommands().keySet())
                .isEqualTo(whole.getSubcommands().get("get").getSubcommands().keySet());
    }

    @Test
    void aPrunedCommandParsesAndFailsAsInTheWholeTree() {
        for (String[] args : new String[][] {{"quota", "list", "--bogus"}, {"get", "workloads", "-o", "nonsense"},
                {"describe", "workload"}}) {
            assertThat(errorOf(TaskgovMain.commandLine(args), args)).as(String.join(" ", args))
                    .isEqualTo(errorOf(new CommandLine(new TaskgovCommand()), args));
        }
    }

    private static String errorOf(CommandLine cmd, String[] args) {
        java.io.StringWriter err = new java.io.StringWriter();
        cmd.setErr(new java.io.PrintWriter(err, true));
        cmd.setOut(new java.io.PrintWriter(java.io.Writer.nullWriter()));
        int exit = cmd.execute(args);
        return exit + ": " + err;
    }

    @Test
    void helpListsEverySubcommandAsTheWholeTreeDoesWithoutBuildingThem() {
        for (String[] args : new String[][] {{"--help"}, {"-h"}}) {
            CommandLine tree = TaskgovMain.commandLine(args);
            assertThat(tree.getSubcommands().keySet()).isEqualTo(whole.getSubcommands().keySet());
            assertThat(tree.getSubcommands().values()).allSatisfy(sub -> assertThat(sub.getCommandSpec().userObject()).isNull());
            java.io.StringWriter shown = new java.io.StringWriter();
            java.io.StringWriter wholeShown = new java.io.StringWriter();
            assertThat(run(tree, shown, args)).isZero();
            assertThat(run(new CommandLine(new TaskgovCommand()), wholeShown, args)).isZero();
            assertThat(shown.toString()).as(String.join(" ", args)).isEqualTo(wholeShown.toString()).contains("hyp-pytorch-job", "quota");
        }
    }

    private static int run(CommandLine cmd, java.io.StringWriter out, String[] args) {
        cmd.setOut(new java.io.PrintWriter(out, true));
        cmd.setErr(new java.io.PrintWriter(out, true));
        return cmd.execute(args);
    }

    @Test
    void anythingElseGetsTheWholeTree() {
        for (String[] args : new String[][] {{}, {"-V"}, {"gett", "workloads"}, {"completion", "bash"}}) {
            assertThat(TaskgovMain.commandLine(args).getSubcommands().keySet()).isEqualTo(whole.getSubcommands().keySet());
        }
    }

    /** The same help (options, defaults, qualified name, subcommands), down every level. */
    private static void sameEverywhere(CommandLine inWhole, CommandLine inBranch) {
        String name = inWhole.getCommandSpec().qualifiedName();
        assertThat(inBranch.getCommandSpec().qualifiedName()).isEqualTo(name);
        assertThat(inBranch.getUsageMessage(CommandLine.Help.Ansi.OFF)).as(name).isEqualTo(inWhole.getUsageMessage(CommandLine.Help.Ansi.OFF));
        assertThat(inBranch.getSubcommands().keySet()).as(name).isEqualTo(inWhole.getSubcommands().keySet());
        inWhole.getSubcommands().forEach((n, sub) -> sameEverywhere(sub, inBranch.getSubcommands().get(n)));
    }
}
