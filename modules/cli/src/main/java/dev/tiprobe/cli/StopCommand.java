package dev.tiprobe.cli;

import picocli.CommandLine.Command;

/** {@code tiprobe stop}. */
@Command(name = "stop", description = "Stop the session: put back every class it changed, finish its recording and write the output -f named at start.",
        footerHeading = "%nExample:%n", footer = {"  tiprobe stop 4242"})
final class StopCommand extends SessionCommand {
    @Override
    String command() {
        return "stop";
    }
}
