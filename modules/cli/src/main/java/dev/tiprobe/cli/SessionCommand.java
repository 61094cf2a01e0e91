package dev.tiprobe.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.nio.file.Path;
import java.util.concurrent.Callable;

/** A command for the session in one target: attach, send one command to the agent, print its answer. */
abstract class SessionCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "<pid>", description = "The target JVM.")
    long pid;

    /** What the agent is asked: start, status, dump or stop. */
    abstract String command();

    /** The session's settings, for start; none for the others. */
    String sessionOptions() throws CliException {
        return "";
    }

    /** The agent options for this command: {@code command=<command>} and the session's settings. */
    final String agentOptions() throws CliException {
        String settings = sessionOptions();
        return "command=" + command() + (settings.isEmpty() ? "" : "," + settings);
    }

    @Override
    public Integer call() throws CliException {
        String options = agentOptions();  // options that do not go together fail before the target is touched
        try (Target target = Target.attach(pid)) {
            Answer answer = Answer.of(answer(target, options));
            spec.commandLine().getOut().println(answer.text());
            warnIfNothingMatched(answer.text());
            if (answer.recording() != null) written(Report.convert(answer.recording(), answer.requested()));
        }
        return Main.OK;
    }

    /**
     * What the agent answered: the text for the user and, for dump and stop, the recording and the
     * output the session was started for, which the command makes from it.
     */
    record Answer(String text, Path recording, Path requested) {
        static Answer of(String answer) {
            String[] parts = answer.split("\t");
            if (parts.length != 3) return new Answer(answer, null, null);
            return new Answer(parts[0], Path.of(parts[1]), Path.of(parts[2]));
        }
    }

    /** Says on stderr which file the command wrote from the recording (nothing when the recording was what was asked for). */
    void written(Path output) {
        if (!Report.recordingFor(output).equals(output)) spec.commandLine().getErr().println("tiprobe " + spec.name() + ": wrote " + output);
    }

    /**
     * The agent's answer: start loads the agent (once per session); status, dump and stop ask the
     * running session through its control socket, and load the agent only where no session listens
     * (a session that could not open its socket), except status, for which that means idle.
     */
    private String answer(Target target, String options) throws CliException {
        String command = command();
        if (command.equals("start")) return startSession(target, options);
        if (command.equals("status")) {
            String answer = target.ask(command);
            return answer != null ? answer : "idle";
        }
        return reach(target, command);
    }

    /**
     * Asks the running session {@code command} (dump or stop) through its control socket or, where
     * none listens (a session that could not open one), by loading the agent again.
     */
    static String reach(Target target, String command) throws CliException {
        String answer = target.ask(command);
        return answer != null ? answer : target.send(Agent.jar(), "command=" + command);
    }

    /** Loads the agent to start a session, once none is found running (asking costs the target nothing). */
    String startSession(Target target, String options) throws CliException {
        if (target.ask("status") != null) throw new CliException("a session is already running; stop it first");
        warnAboutFlags(target);
        return target.send(Agent.jar(), options);
    }

    /** A start that instrumented nothing says so at once: the filter may be wrong, or its classes not loaded yet. */
    void warnIfNothingMatched(String answer) {
        if (answer.startsWith("started: 0 methods instrumented")) {
            spec.commandLine().getErr().println("tiprobe " + spec.name() + ": the filter matches no method of the classes loaded"
                    + " so far; classes that load later are traced as they load (check the filter: tiprobe " + spec.name() + " --help)");
        }
    }

    /** Once, in one line: the flags that would keep the JDK's warnings out of the target. */
    void warnAboutFlags(Target target) {
        String missing = target.missingFlags();
        if (!missing.isEmpty()) {
            spec.commandLine().getErr().println("tiprobe " + spec.name() + ": the target prints JDK warnings when the agent loads; start it with "
                    + missing + " to silence them");
        }
    }
}
