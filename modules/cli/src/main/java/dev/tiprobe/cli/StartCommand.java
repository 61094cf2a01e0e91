package dev.tiprobe.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code tiprobe start}: begin a session that runs until stop (or until the target exits). */
@Command(name = "start", description = "Start tracing in a running JVM; it goes on until 'tiprobe stop' or the JVM's exit.",
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
        if (!trace.file.endsWith(".json")) {
            throw new CliException("start, dump and stop write JSON: name the file .json, and convert it with 'tiprobe report'");
        }
        return trace.agentOptions(Agent.output(trace.file, pid));
    }
}
