package dev.tiprobe.cli;

import picocli.CommandLine.Command;

/** {@code tiprobe status}. */
@Command(name = "status", description = "Show whether a session runs in the JVM, and what it has seen so far.",
        footerHeading = "%nExample:%n", footer = {"  tiprobe status 4242"})
final class StatusCommand extends SessionCommand {
    @Override
    String command() {
        return "status";
    }
}
