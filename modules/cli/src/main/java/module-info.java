/**
 * The {@code tiprobe} command: lists JVMs, attaches to one and drives the agent inside it
 * (start, status, dump, stop, collect), or launches one with the agent from its first moment.
 */
@SuppressWarnings("requires-automatic")  // protobuf-java names its module in the manifest; the image build makes it explicit
module dev.tiprobe.cli {
    requires info.picocli;
    requires com.google.protobuf;
    requires jdk.attach;
    requires dev.tiprobe.report;
    requires dev.tiprobe.options;
    opens dev.tiprobe.cli to info.picocli;
}
