package dev.tiprobe.cli;

import picocli.CommandLine.Command;

/** {@code tiprobe stop}. */
@Command(name = "stop", description = "Stop the session: write its results and put back every class it changed.",
        footerHeading = "%nExample:%n", footer = {"  tiprobe stop 4242"})
final class StopCommand extends SessionCommand {
    @Override
    String command() {
        return "stop";
    }
}
