package dev.taskgov.cli;

import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/** {@code taskgov completion bash}: a completion script; {@code source <(taskgov completion bash)}. */
@Command(name = "completion", mixinStandardHelpOptions = true,
        description = {"Print a shell completion script.", "Use: source <(taskgov completion bash)   (bash and zsh)"})
public class CompletionCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "SHELL", defaultValue = "bash", description = "bash or zsh (default ${DEFAULT-VALUE}).")
    String shell;

    @Override
    public Integer call() {
        if (!shell.equals("bash") && !shell.equals("zsh")) {
            spec.commandLine().getErr().println("error: SHELL must be bash or zsh (the bash script also runs in zsh), was '" + shell + "'");
            return CliException.INVALID_INPUT;
        }
        spec.commandLine().getOut().print(AutoComplete.bash("taskgov", spec.root().commandLine()));
        spec.commandLine().getOut().flush();
        return 0;
    }
}
