package dev.taskgov.cli;

import picocli.CommandLine.Mixin;

/** A read that {@code --watch} repeats, redrawing its view each time ({@link WatchOption}). */
abstract class WatchedCommand extends AnswerCommand {

    @Mixin
    WatchOption watch;

    @Override
    protected final int run() {
        return watch.run(this, this::once);
    }

    /** One read and its view; the exit code. */
    protected abstract int once();
}
