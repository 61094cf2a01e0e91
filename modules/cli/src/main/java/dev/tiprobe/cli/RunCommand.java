package dev.tiprobe.cli;

import dev.tiprobe.options.AgentOptions;
import dev.tiprobe.recording.JvmRecording;
import dev.tiprobe.report.Export;
import dev.tiprobe.report.Recording;
import dev.tiprobe.report.TextReport;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code tiprobe run [options] -- java ...}: launch a JVM with the agent from its first moment;
 * the agent finishes its recording when the JVM exits, and the command makes the output asked
 * for from it. Exits with the program's exit code.
 */
@Command(name = "run", description = "Launch a JVM with tracing or profiling from its first moment; results are made when it exits.",
        footerHeading = "%nExamples:%n", footer = {"  tiprobe run --sample 10ms -f app.html -- java -jar app.jar", "  tiprobe run --trace 'app.**' --mode trace -f calls.txt -- java -cp app.jar app.Main"})
final class RunCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    TraceOptions trace;

    @Parameters(arity = "1..*", paramLabel = "-- java <args>", description = "The command that starts the JVM.")
    List<String> command;

    /**
     * With no {@code -f}, as {@code tiprobe <pid>} does, the text report (the top methods, the
     * traced methods and calls) is printed once the program has exited, and no file is left: the
     * recording goes to a temporary directory of its own.
     */
    @Override
    public Integer call() throws CliException {
        try (RunEnding ending = new RunEnding()) {
            try {
                int exit = runAndReport(ending);
                ending.exit(exit);
                return exit;
            } catch (CliException e) {
                if (!ending.told()) throw e;  // said as every command's failure is
                // Told to end, the command ends as soon as the ending is closed: before Main could say it.
                int code = e instanceof UsageException ? Main.USAGE : Main.FAILURE;
                spec.commandLine().getErr().println("tiprobe run: " + e.getMessage());
                ending.exit(code);
                return code;
            }
        }
    }

    private int runAndReport(RunEnding ending) throws CliException {
        if (ending.told()) throw new CliException("told to end before the program started");
        boolean printed = trace.textToStdout();
        Path temporary = printed ? Agent.tempDirectory("tiprobe-") : null;
        try {
            // %p: the program's pid, which the agent fills in
            Path output = printed ? temporary.resolve(AgentOptions.expandTime(CollectCommand.PRINTED_RECORDING)) : Agent.output(trace.file(), null);
            String options = trace.agentOptions(output);  // options that do not go together fail before the java command is looked at
            JavaLauncher.Runtime runtime = JavaLauncher.check(command.getFirst());
            Finished done = launch(command, runtime, options, trace.tracing(), output, ending::started);
            if (printed) {
                Recording r = Exports.read(done.results(), spec.commandLine().getErr());
                TextReport.write(r, null, spec.commandLine().getOut(), Export.TOP_ROWS, Export.CALLS_PRINTED);
                Exports.say(spec, Report.sessionNotes(r));
                spec.commandLine().getErr().println("tiprobe run: the program exited with " + done.exit()
                        + " (-f names a file for the whole profile: .html, .jfr, .tpr …)");
                return done.exit();
            }
            Exports.say(spec, Report.convertAndCheck(done.results()));
            spec.commandLine().getErr().println("tiprobe run: the program exited with " + done.exit() + "; results in " + done.results());
            return done.exit();
        } finally {
            if (temporary != null) Agent.deleteDirectory(temporary);
        }
    }

    /** How a launched program ended, and the output asked for (made from its recording by {@link Report#convert}). */
    record Finished(int exit, long pid, Path results) {}

    /**
     * Runs {@code command} (a java command line) with the agent from its first moment, sharing this
     * terminal. A tracing run names the probe jar with {@code -Xbootclasspath/a:}: the agent would
     * otherwise append it while the VM runs, and the JDK then prints a class-sharing warning into
     * the program's output. A sampling run starts JFR's sampler with the JVM where its
     * {@code runtime} has JFR ({@link JvmRecording#flags}). The agent is quiet: the
     * command says where the results are, and nothing of tiprobe's goes into the program's output.
     * {@code started} is given the program's process as it starts.
     */
    static Finished launch(List<String> command, JavaLauncher.Runtime runtime, String agentOptions, boolean tracing, Path output,
                           java.util.function.Consumer<Process> started) throws CliException {
        List<String> full = new ArrayList<>();
        full.add(command.getFirst());
        if (tracing) full.add("-Xbootclasspath/a:" + Agent.probeJar());
        full.add("-javaagent:" + Agent.jar() + "=" + agentOptions + ",quiet");  // native access of its own: the program's stays as the user set it
        AgentOptions.Sampling sampling = AgentOptions.parse(agentOptions).sampling();
        if (sampling != null) full.addAll(JvmRecording.flags(sampling.interval(), sampling.depth(), runtime.jfr(), command.subList(1, command.size())));
        full.addAll(command.subList(1, command.size()));
        Process process;
        try {
            process = new ProcessBuilder(full).inheritIO().start();
        } catch (IOException e) {
            throw new CliException("cannot start " + command.getFirst() + ": " + e.getMessage(), e);
        }
        started.accept(process);
        try {
            int exit = process.waitFor();
            return new Finished(exit, process.pid(), Path.of(AgentOptions.expand(output.toString(), process.pid())));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliException("interrupted while the program ran", e);
        }
    }
}
