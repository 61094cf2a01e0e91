package dev.tiprobe.cli;

import dev.tiprobe.recording.RecordingFormat;
import dev.tiprobe.report.Export;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code tiprobe start}: begin a session that runs until stop (or until the target exits). */
@Command(name = "start", description = "Start tracing or sampling in a running JVM; it goes on until 'tiprobe stop' (which writes -f's"
        + " output) or the JVM's exit (which leaves the recording: tiprobe report turns it into any output).",
        footerHeading = "%nExamples:%n", footer = {"  tiprobe start --trace 'com.foo.Bar::get*' --mode trace -f calls-%%p.json 4242",
                "  tiprobe start --sample 10ms --sample-mode cpu --loop 60s --keep 24 -f 'profiles/cpu-%%t.tpr' 4242"})
final class StartCommand extends SessionCommand {
    @Mixin
    TraceOptions trace;

    @Mixin
    LoopOptions looping;

    @Override
    String command() {
        return "start";
    }

    @Override
    String sessionOptions() throws CliException {
        if (!looping.asked()) return trace.agentOptions(Agent.output(trace.file(), pid), looping);
        if (!RecordingFormat.isRecording(trace.file()) && !Export.PPROF.names(trace.file())) {
            throw new UsageException("start --loop writes recordings or pprof profiles: name them .tpr or .pb.gz (e.g. -f 'p-%t.pb.gz');"
                    + " collect --loop makes .html, .collapsed, ... of each as it finishes");
        }
        return trace.agentOptions(Agent.loopOutput(trace.file(), pid), looping);
    }
}
