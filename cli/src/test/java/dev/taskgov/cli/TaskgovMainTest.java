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
    void anythingElseGetsTheWholeTree() {
        for (String[] args : new String[][] {{}, {"--help"}, {"-V"}, {"gett", "workloads"}, {"completion", "bash"}}) {
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
