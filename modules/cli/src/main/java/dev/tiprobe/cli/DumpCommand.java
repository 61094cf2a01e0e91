package dev.tiprobe.cli;

import picocli.CommandLine.Command;

/** {@code tiprobe dump}. */
@Command(name = "dump", description = "Write what the session has seen so far: its recording, and the output -f named at start; it keeps going.",
        footerHeading = "%nExample:%n", footer = {"  tiprobe dump 4242"})
final class DumpCommand extends SessionCommand {
    @Override
    String command() {
        return "dump";
    }
}
