package dev.tiprobe.cli;

import dev.tiprobe.options.AgentControl;
import dev.tiprobe.recording.ControlSocket;
import dev.tiprobe.recording.Reply;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** A command for the session in one target: attach, send one command to the agent, print its answer. */
abstract class SessionCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "<pid>", converter = PidConverter.class, description = "The target JVM.")
    long pid;

    /** A pid is a positive number; anything else says what it should be, not Java's type. */
    static final class PidConverter implements picocli.CommandLine.ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            try {
                long pid = Long.parseLong(value);
                if (pid > 0) return pid;
            } catch (NumberFormatException e) {
                // said below
            }
            throw new picocli.CommandLine.TypeConversionException("'" + value + "' is not a pid (a process id, as 'tiprobe list' shows)");
        }
    }

    /** What the agent is asked: start, status, dump or stop. */
    abstract String command();

    /** The session's settings, for start; none for the others. */
    String sessionOptions() throws CliException {
        return "";
    }

    /** The agent options for this command: {@code command=<command>} and the session's settings. */
    final String agentOptions() throws CliException {
        String settings = sessionOptions();
        return AgentControl.option(AgentControl.COMMAND, command()) + (settings.isEmpty() ? "" : "," + settings);
    }

    @Override
    public Integer call() throws CliException {
        String options = agentOptions();  // options that do not go together fail before the target is touched
        Reply unattached = command().equals("start") ? null : Target.askUnattached(pid, command());
        if (unattached != null) {
            print(unattached);
            return Main.OK;
        }
        try (Target target = Target.attach(pid)) {
            print(answer(target, options));
        }
        return Main.OK;
    }

    /** Prints the agent's answer and, for a dump or a stop, writes the output asked for from its recording. */
    private void print(Reply answer) throws CliException {
        Path recording = finished(answer) ? recordingKept(answer) : null;
        spec.commandLine().getOut().println(finishedText(answer, "recording in " + recording));
        warnIfNothingMatched(answer);
        if (recording != null) made(recording, answer.path(Reply.OUTPUT));
    }

    /** Whether {@code answer} is a dump's or a stop's, with a recording the command makes the output from. */
    static boolean finished(Reply answer) {
        return (answer.kind().equals(Reply.DUMPED) || answer.kind().equals(Reply.STOPPED)) && answer.fact(Reply.RECORDING) != null;
    }

    /**
     * The recording a dump or a stop answered with, or null for none; a recording that is gone
     * (its file or directory removed while the session ran) fails here, before any line claims it.
     */
    static Path recordingKept(Reply answer) throws CliException {
        Path recording = answer.path(Reply.RECORDING);
        if (recording != null && Files.notExists(recording)) {
            throw new CliException(answer.text() + ", but its recording is gone: " + recording + " was removed");
        }
        return recording;
    }

    /** The answer's text, and for a dump or a stop where it was written ({@code where}). */
    static String finishedText(Reply answer, String where) {
        return finished(answer) ? answer.text() + "; " + where : answer.text();
    }

    /** Says on stderr which file the command wrote from the recording (nothing when the recording was what was asked for). */
    void written(Path output) {
        if (!Report.recordingFor(output).equals(output)) spec.commandLine().getErr().println("tiprobe " + spec.name() + ": wrote " + output);
    }

    /** Makes {@code output} from {@code recording}, and says where, and what its samples lack ({@link Report#convert}). */
    void made(Path recording, Path output) throws CliException {
        List<String> notes = Report.convert(recording, output);
        written(output);
        Exports.say(spec, notes);
    }

    /**
     * The agent's answer: start loads the agent (once per session); status, dump and stop ask the
     * running session through its control socket, and load the agent only where no session listens
     * (a session that could not open its socket), except status, for which that means idle.
     */
    private Reply answer(Target target, String options) throws CliException {
        String command = command();
        if (command.equals("start")) return startSession(target, options);
        if (command.equals("status")) {
            Reply answer = target.ask(command);
            return answer != null ? answer : Reply.ok(Reply.IDLE, "idle");
        }
        return reach(target, command);
    }

    /**
     * Asks the running session {@code command} (dump or stop) through its control socket or, where
     * none listens (a session that could not open one), by loading the agent again.
     */
    static Reply reach(Target target, String command) throws CliException {
        Reply answer = target.ask(command);
        return answer != null ? answer : target.send(Agent.jar(), AgentControl.option(AgentControl.COMMAND, command));
    }

    /**
     * How long a target that could not be reached may take to end, before the failure is the
     * answer: more than the agent's own work at an exit (JFR's last events, at most about 15 s).
     * A JVM on its way out has closed its sockets while its process still lives.
     */
    static final Duration STOP_GRACE = Duration.ofSeconds(20);

    /** Whether the target JVM has ended, or ends within {@code grace} (zero: whether it has now). */
    boolean targetEndsWithin(Duration grace) {
        Optional<ProcessHandle> target = ProcessHandle.of(pid);
        if (target.isEmpty()) return true;
        if (grace.isZero()) return !target.get().isAlive();
        try {
            target.get().onExit().get(grace.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (TimeoutException | ExecutionException e) {
            return !target.get().isAlive();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return !target.get().isAlive();
        }
    }

    /**
     * This command's process as a session's owner ({@code <pid>:<start, epoch ms>}): the session
     * stops itself when it is gone, as when the command is killed (SIGKILL runs no Ctrl-C hook).
     */
    static String ownerOfTheSession() {
        ProcessHandle me = ProcessHandle.current();
        return me.pid() + ":" + ControlSocket.startMillis(me);
    }

    /** Loads the agent to start a session, once none is found running (asking costs the target nothing). */
    Reply startSession(Target target, String options) throws CliException {
        if (target.sessionRuns()) throw new CliException("a session is already running; stop it first");
        warnAboutFlags(target);
        return target.send(Agent.jar(), options);
    }

    /** A start that instrumented nothing says so at once: the filter may be wrong, or its classes not loaded yet. */
    void warnIfNothingMatched(Reply answer) {
        // Classes left unchanged are named in the answer itself, with why.
        if (answer.kind().equals(Reply.STARTED) && answer.count(Reply.METHODS) == 0 && answer.count(Reply.CLASSES_LEFT_UNCHANGED) <= 0) {
            spec.commandLine().getErr().println("tiprobe " + spec.name() + ": the filter matches no method of the classes loaded"
                    + " so far; classes that load later are traced as they load (check the filter: tiprobe " + spec.name() + " --help)");
        }
    }

    /** Once, in one line: the flags that would keep the JDK's warnings out of the target. */
    void warnAboutFlags(Target target) throws CliException {
        String missing = target.missingFlags();
        if (!missing.isEmpty()) {
            spec.commandLine().getErr().println("tiprobe " + spec.name() + ": the target prints the JDK's warning each time an agent loads into it (once per tiprobe session); start it with "
                    + missing + " to silence it");
        }
    }
}
