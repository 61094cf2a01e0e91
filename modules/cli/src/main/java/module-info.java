/**
 * The {@code tiprobe} command: lists JVMs, attaches to one and drives the agent inside it
 * (start, status, dump, stop, collect), or launches one with the agent from its first moment.
 */
module dev.tiprobe.cli {
    requires info.picocli;
    requires jdk.attach;
    requires dev.tiprobe.report;
    requires dev.tiprobe.options;
    opens dev.tiprobe.cli to info.picocli;
}
