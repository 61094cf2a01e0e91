package dev.tiprobe.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code tiprobe start}: begin a session that runs until stop (or until the target exits). */
@Command(name = "start", description = "Start tracing or sampling in a running JVM; it goes on until 'tiprobe stop' (which writes -f's"
        + " output) or the JVM's exit (which leaves the recording: tiprobe report turns it into any output).",
        footerHeading = "%nExample:%n", footer = {"  tiprobe start --trace 'com.foo.Bar::get*' --mode trace -f calls-%%p.json 4242"})
final class StartCommand extends SessionCommand {
    @Mixin
    TraceOptions trace;

    @Override
    String command() {
        return "start";
    }

    @Override
    String sessionOptions() throws CliException {
        return trace.agentOptions(Agent.output(trace.file, pid));
    }
}
