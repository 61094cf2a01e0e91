package dev.tiprobe.cli;

import com.sun.tools.attach.AgentInitializationException;
import com.sun.tools.attach.AgentLoadException;
import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;
import com.sun.tools.attach.VirtualMachineDescriptor;

import dev.tiprobe.options.AgentControl;
import dev.tiprobe.recording.ControlSocket;
import dev.tiprobe.recording.Reply;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A JVM tiprobe attached to, after the checks that give a clear answer instead of the attach
 * API's: the pid exists, belongs to this user, is a JVM that accepts attach, and runs Java 25 or
 * newer. A session, once started by loading the agent, is reached through its control socket
 * ({@link ControlSocket}), found without attaching where it is in the usual place, and otherwise
 * by attaching to read the target's properties, which loads nothing: status, dump and stop leave
 * no JDK warning in the target. Loading the agent answers in a file only this
 * user reads.
 *
 * <p>The target's properties are asked only where /proc cannot tell: each round trip before the
 * agent's load delays a session's first sample by 30 to 35 ms (BENCHMARKS.md), and one during
 * the session shows in its profile (the target's attach listener formatting the answer). So the
 * Java version comes from the {@code release} file of the runtime the target mapped, its flags
 * from how it was started ({@link Launch}), and whether a session runs already from the socket in
 * this command's temporary directory where the target's is the same ({@link #sessionRuns}).
 */
final class Target implements AutoCloseable {
    static final int MIN_FEATURE = 25;

    private final long pid;
    /** The attach API's connection, detached by {@link #close}. */
    private final VirtualMachine vm;
    /** How the target was started, read once from /proc; null where it could not be read. */
    private final Launch launch;
    /** The target's system properties, once asked; else null. */
    private Properties system;
    /** Where the session this command started listens, as its answer said; else null. */
    private Path sessionSocket;

    private Target(long pid, VirtualMachine vm) {
        this.pid = pid;
        this.vm = vm;
        this.launch = Launch.of(pid);
    }

    static Target attach(long pid) throws CliException {
        refuseWhatIsNotAnotherOfMyJvms(pid);
        return within(ATTACH_PATIENCE, "attach", pid, () -> attachNow(pid));
    }

    /**
     * What the session in {@code pid} answers {@code command} (status, dump, stop), asked without
     * attaching where its socket is in this user's temporary directory, the usual place; where a
     * session there stopped itself, its note answers instead (idle, and why); status of a target
     * whose temporary directory is this command's ({@link #tmpdirIsMine}) is idle without either.
     * Null otherwise: then {@link #attach} learns where the target's socket is. Attaching takes room in the
     * target's heap, and a heap full enough to stop a session may have none to give (seen: 40 s of
     * status commands whose attach met an {@code OutOfMemoryError}).
     */
    static Reply askUnattached(long pid, String command) throws CliException {
        refuseWhatIsNotAnotherOfMyJvms(pid);
        Path socket = usualSocket(pid);
        Reply answer = ask(pid, socket, command);
        if (answer != null) return answer;
        String why = ControlSocket.stoppedItself(socket, ProcessHandle.of(pid).map(ControlSocket::startMillis).orElse(-1L));
        if (why == null) return command.equals("status") && tmpdirIsMine(pid) ? Reply.ok(Reply.IDLE, "idle") : null;
        if (!command.equals("status")) throw new CliException("no session is running" + ControlSocket.lastStopped(why));
        return Reply.ok(Reply.IDLE, "idle" + ControlSocket.lastStopped(why)).with(Reply.WHY, why);
    }

    /**
     * Whether the target's {@code java.io.tmpdir} is this command's, as far as /proc tells: this
     * command's is the default {@code /tmp}, and nothing the target's JVM reads at its start may
     * set another ({@link #mayChooseTmpdir}). Then no socket there means no session, and status
     * need not attach. False where /proc cannot be read.
     */
    static boolean tmpdirIsMine(long pid) {
        return tmpdirIsMine(Launch.of(pid));
    }

    /** {@link #tmpdirIsMine(long)} of a JVM started so; false for null (/proc unread). */
    private static boolean tmpdirIsMine(Launch launch) {
        return Path.of(System.getProperty("java.io.tmpdir")).equals(Path.of("/tmp")) && launch != null && !mayChooseTmpdir(launch);
    }

    /**
     * Whether a JVM started so may have a {@code java.io.tmpdir} of its own: the property given, or
     * a file of arguments or flags that could hold it. (A program that sets the property itself
     * while it runs is not seen.)
     */
    static boolean mayChooseTmpdir(Launch launch) {
        return launch.mayHideOptions() || launch.gives("-Djava.io.tmpdir=");
    }

    /**
     * How a JVM was started, as /proc shows it: its command line, and the variables ({@code
     * NAME=value}) its launcher and VM read options from.
     */
    record Launch(List<String> args, List<String> optionVariables) {
        /** The variables that hold options: the launcher's JDK_JAVA_OPTIONS, the VM's JAVA_TOOL_OPTIONS and _JAVA_OPTIONS. */
        private static final Pattern OPTION_VARIABLE = Pattern.compile("(JAVA_TOOL_OPTIONS|JDK_JAVA_OPTIONS|_JAVA_OPTIONS)=.*");

        Launch(String[] args, String[] environment) {
            this(List.of(args), Arrays.stream(environment).filter(v -> OPTION_VARIABLE.matcher(v).matches()).toList());
        }

        /** {@code pid}'s; null where /proc cannot be read. */
        static Launch of(long pid) {
            try {
                return new Launch(commandLine(pid), procFile(pid, "environ"));
            } catch (IOException | RuntimeException e) {
                return null;
            }
        }

        /** {@code pid}'s command line, an argument each. */
        static String[] commandLine(long pid) throws IOException {
            return procFile(pid, "cmdline");
        }

        /** A file of /proc that holds strings each ended by a NUL: the command line, the environment. */
        private static String[] procFile(long pid, String name) throws IOException {
            return new String(Files.readAllBytes(Path.of("/proc", Long.toString(pid), name)), StandardCharsets.UTF_8).split("\0");
        }

        /** Whether an option may hide in a file it names: an argument file ({@code @file}), a flags or VM options file. */
        boolean mayHideOptions() {
            return args.stream().anyMatch(a -> a.startsWith("@") || a.startsWith("-XX:Flags=") || a.startsWith("-XX:VMOptionsFile="))
                    || optionVariables.stream().anyMatch(v -> v.contains("@") || v.contains("-XX:Flags=") || v.contains("-XX:VMOptionsFile="));
        }

        /** Whether {@code option} (its beginning) is given on the command line or in a variable. */
        boolean gives(String option) {
            return args.stream().anyMatch(a -> a.startsWith(option)) || optionVariables.stream().anyMatch(v -> v.contains(option));
        }

        /**
         * Whether the boolean VM flag {@code name} ({@code EnableDynamicAgentLoading}) is on, as the
         * JVM reads its options: JAVA_TOOL_OPTIONS first, then JDK_JAVA_OPTIONS and the command
         * line, then _JAVA_OPTIONS, the last {@code -XX:+name} or {@code -XX:-name} deciding; off
         * where none names it.
         */
        boolean turnsOn(String name) {
            List<String> inOrder = new ArrayList<>(variable("JAVA_TOOL_OPTIONS"));
            inOrder.addAll(variable("JDK_JAVA_OPTIONS"));
            inOrder.addAll(args);
            inOrder.addAll(variable("_JAVA_OPTIONS"));
            return lastSays(inOrder, name);
        }

        /** The options in variable {@code name}. */
        private List<String> variable(String name) {
            return optionVariables.stream().filter(v -> v.startsWith(name + "=")).flatMap(v -> words(v.substring(name.length() + 1)).stream()).toList();
        }

        /** Options given in one string, split as the JVM splits a variable's, at white space. */
        static List<String> words(String options) {
            return List.of(options.strip().split("\\s+"));
        }

        /** Whether the last of {@code options} to set the boolean flag {@code name} turns it on; false where none does. */
        static boolean lastSays(List<String> options, String name) {
            boolean on = false;
            for (String o : options) {
                if (o.equals("-XX:+" + name)) on = true;
                else if (o.equals("-XX:-" + name)) on = false;
            }
            return on;
        }
    }

    /** The checks before any attach: the pid is another live process of this user's, and a JVM that accepts attach. */
    private static void refuseWhatIsNotAnotherOfMyJvms(long pid) throws CliException {
        if (pid == ProcessHandle.current().pid()) throw new CliException("pid " + pid + " is tiprobe itself");
        Optional<ProcessHandle> process = ProcessHandle.of(pid);
        if (process.isEmpty() || !process.get().isAlive()) throw new CliException("no process with pid " + pid);
        String me = System.getProperty("user.name");
        Optional<String> owner = process.get().info().user();
        if (owner.isPresent() && !owner.get().equals(me)) {
            throw new CliException("process " + pid + " belongs to " + owner.get() + "; tiprobe attaches only to JVMs of its own user (" + me + ")");
        }
        refuseWhatCannotAttach(pid);
    }

    private static Target attachNow(long pid) throws CliException {
        VirtualMachine vm;
        VirtualMachineDescriptor listed = AttachListener.listed(pid);
        Path trigger = listed == null ? null : AttachListener.start(pid);
        try {
            vm = listed != null ? VirtualMachine.attach(listed) : VirtualMachine.attach(Long.toString(pid));
        } catch (AttachNotSupportedException e) {
            throw new CliException("process " + pid + " is not a JVM that accepts attach (not Java, or started with -XX:+DisableAttachMechanism)");
        } catch (IOException e) {
            throw new CliException("cannot attach to " + pid + ": " + e.getMessage(), e);
        } finally {
            AttachListener.delete(trigger);
        }
        Target target = new Target(pid, vm);
        try {
            MappedFile libjvm;
            try {
                libjvm = mappedLibjvm(pid);
            } catch (IOException noProc) {
                libjvm = null;  // another system, or the process just ended: its properties tell
            }
            JavaRuntime runtime = JavaRuntime.of(pid, libjvm);
            if (runtime == null) {
                Properties system = target.systemProperties();
                runtime = new JavaRuntime(system.getProperty("java.version", "?"), system.getProperty("java.home"));
            }
            if (feature(runtime.version()) < MIN_FEATURE) {
                throw new CliException("process " + pid + " runs Java " + runtime.version() + " (" + runtime.home()
                        + "); tiprobe needs Java " + MIN_FEATURE + " or newer");
            }
            if (libjvm != null && libjvm.removed()) refuseAChangedJdk(pid, libjvm, runtime.version());
            return target;
        } catch (CliException e) {
            detach(vm);
            throw e;
        }
    }

    /**
     * The Java runtime a process runs, as the {@code release} file of the runtime whose {@code
     * libjvm.so} it has mapped says: its version ({@code JAVA_VERSION}) and home.
     */
    record JavaRuntime(String version, String home) {
        /**
         * {@code pid}'s runtime, by the {@code libjvm} it maps; null where /proc or the file
         * cannot tell (another system, a runtime laid out otherwise, as Java 8's {@code
         * jre/lib/amd64/server}, or one whose libjvm.so was removed since, its files another
         * version's now or gone): its properties tell it then.
         */
        static JavaRuntime of(long pid, MappedFile libjvm) {
            try {
                if (libjvm == null || libjvm.removed()) return null;
                Path home = javaHome(libjvm);
                return JavaLauncher.releaseVersion(asSeenBy(pid, home.resolve("release")))
                        .map(version -> new JavaRuntime(version, home.toString())).orElse(null);
            } catch (RuntimeException e) {
                return null;
            }
        }
    }

    /**
     * Refuses a JVM whose JDK changed on disk since it started ({@code libjvm} removed, as a
     * package's update or removal leaves it) when the agent's load would take the JDK's agent
     * loader, libinstrument.so, from there: gone, or of another version, not this JVM's to load.
     * One that loaded it already (an agent before), or whose JDK on disk is still of its own
     * {@code version}, is attached to. Where /proc cannot tell, the load decides.
     */
    private static void refuseAChangedJdk(long pid, MappedFile libjvm, String version) throws CliException {
        try {
            if (mapped(pid, "/libinstrument.so") != null) return;
            Path home = javaHome(libjvm);
            Optional<String> versionOnDisk = JavaLauncher.releaseVersion(asSeenBy(pid, home.resolve("release")));
            if (versionOnDisk.equals(Optional.of(version)) && Files.exists(asSeenBy(pid, home.resolve("lib").resolve("libinstrument.so")))) return;
            throw new CliException("process " + pid + " runs Java " + version + ", whose files changed on disk since it started"
                    + " (its libjvm.so was removed; " + home + " now holds " + versionOnDisk.map(v -> "Java " + v).orElse("no Java")
                    + "): the agent's load would take libinstrument.so from there; restart the JVM to profile it");
        } catch (IOException | RuntimeException e) {
            // no /proc here, or the process just ended: the load answers
        }
    }

    /**
     * A file a process has mapped, as a line of /proc's maps names it: its path, and whether it
     * was removed since it was mapped, which maps says after the path. A JDK updated or
     * uninstalled under a running JVM (a package upgrade on a server) leaves that JVM's
     * libjvm.so so: still a JVM, and one to attach to where its agent loader can still be had
     * ({@link #refuseAChangedJdk}).
     */
    record MappedFile(String path, boolean removed) {
        private static final String REMOVED = " (deleted)";

        /** The file a maps line names; null for a line that names none (the heap, the stack, an anonymous mapping). */
        static MappedFile of(String mapsLine) {
            int slash = mapsLine.indexOf('/');
            if (slash < 0) return null;
            String name = mapsLine.substring(slash);
            boolean removed = name.endsWith(REMOVED);
            return new MappedFile(removed ? name.substring(0, name.length() - REMOVED.length()) : name, removed);
        }
    }

    /** The Java home of a runtime by the libjvm.so it maps ({@code <home>/lib/server/libjvm.so}). */
    private static Path javaHome(MappedFile libjvm) {
        return Path.of(libjvm.path()).getParent().getParent().getParent();
    }

    /** {@code path} as process {@code pid} sees it, through its root (a container's own). */
    private static Path asSeenBy(long pid, Path path) {
        return Path.of("/proc", Long.toString(pid), "root").resolve(path.toString().substring(1));
    }

    /** The {@code libjvm.so} {@code pid} has mapped, as /proc's maps names it; null where it maps none. */
    static MappedFile mappedLibjvm(long pid) throws IOException {
        return mapped(pid, "/libjvm.so");
    }

    /** The first file {@code pid} has mapped whose path ends with {@code ending}; null where it maps none. */
    private static MappedFile mapped(long pid, String ending) throws IOException {
        try (Stream<String> maps = Files.lines(Path.of("/proc", Long.toString(pid), "maps"))) {
            return maps.map(MappedFile::of).filter(f -> f != null && f.path().endsWith(ending)).findFirst().orElse(null);
        }
    }

    /** The target's system properties, asked once. */
    private Properties systemProperties() throws CliException {
        if (system == null) system = asked(vm::getSystemProperties);
        return system;
    }

    /** An attach API question whose answer does not come back without a timeout. */
    @FunctionalInterface
    private interface Question<T> {
        T ask() throws IOException;
    }

    /** {@code question}'s answer within the attach's patience, or why there is none. */
    private <T> T asked(Question<T> question) throws CliException {
        return within(ATTACH_PATIENCE, "attach", pid, () -> {
            try {
                return question.ask();
            } catch (IOException e) {
                if (!ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
                    throw new CliException("process " + pid + " went away while tiprobe attached", e);
                }
                String full = String.valueOf(e.getMessage()).contains("OutOfMemoryError") ? " (its heap is full)" : "";
                throw new CliException("process " + pid + " could not answer tiprobe's attach: " + e.getMessage() + full, e);
            }
        });
    }

    /** Where a session in {@code pid} listens when the target's temporary directory is this command's. */
    private static Path usualSocket(long pid) {
        return ControlSocket.path(Path.of(System.getProperty("java.io.tmpdir")), System.getProperty("user.name"), pid);
    }

    /**
     * Where a session of tiprobe's in the target listens: where the session this command started
     * said, else where the target's properties say (a program may set its temporary directory
     * while it runs, which /proc does not show).
     */
    private Path controlSocket() throws CliException {
        if (sessionSocket != null) return sessionSocket;
        Properties p = systemProperties();
        return ControlSocket.path(Path.of(p.getProperty("java.io.tmpdir", "/tmp")), p.getProperty("user.name", "?"), pid);
    }

    /**
     * Whether a session runs in the target, asked before starting one: where /proc shows the
     * target's temporary directory is this command's, without the round trip of its properties,
     * which delays the session's first sample (a session /proc cannot show, as above, refuses the
     * second start itself).
     */
    boolean sessionRuns() throws CliException {
        return ask(pid, tmpdirIsMine(launch) ? usualSocket(pid) : controlSocket(), "status") != null;
    }

    /** What may run no longer than a command's patience. */
    @FunctionalInterface
    private interface Attaching<T> {
        T call() throws CliException;
    }

    /**
     * Runs {@code work} on a daemon thread and waits at most {@code patience}: past its connection
     * handshake the attach API reads without a timeout, and a JVM whose heap is full, or that is
     * stuck, leaves it reading forever (seen: a {@code status} that waited 10 minutes in
     * {@code VirtualMachine.attach}). The command ends after a timeout, the worker with it.
     */
    private static <T> T within(Duration patience, String what, long pid, Attaching<T> work) throws CliException {
        var result = new CompletableFuture<T>();
        Thread worker = new Thread(() -> {
            try {
                result.complete(work.call());
            } catch (Throwable t) {
                result.completeExceptionally(t);
            }
        }, "tiprobe-" + what.replace(' ', '-'));
        worker.setDaemon(true);
        worker.start();
        try {
            return result.get(patience.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            String late = what.equals("attach") ? "" : "; a session may begin all the same: tiprobe status " + pid;
            throw new CliException("process " + pid + " did not answer tiprobe's " + what + " within " + patience.toSeconds()
                    + " s" + HEAP_HINT.formatted(pid) + late, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliException("interrupted during tiprobe's " + what + " of " + pid, e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof CliException c) throw c;
            if (e.getCause() instanceof RuntimeException r) throw r;
            if (e.getCause() instanceof Error err) throw err;
            throw new CliException("tiprobe's " + what + " of " + pid + " failed: " + e.getCause(), e.getCause());
        }
    }

    /** How long the attach itself may take; the agent's load, which instruments classes, gets {@link #PATIENCE}. */
    static final Duration ATTACH_PATIENCE = Duration.ofSeconds(30);

    /**
     * Refuses, from /proc and without signalling anything, a process that is not a JVM or that
     * accepts no attach. The attach API would send such a process SIGQUIT and wait seconds for an
     * answer; a wrapper (timeout, a shell) may pass the signal on to its JVM, which then prints a
     * thread dump, and a JVM started with -XX:+DisableAttachMechanism prints one itself. Where /proc
     * cannot be read (another system), the attach API decides.
     */
    static void refuseWhatCannotAttach(long pid) throws CliException {
        try {
            if (mappedLibjvm(pid) == null) {
                throw new CliException("process " + pid + " is not a JVM that accepts attach: it has no libjvm.so"
                        + " (if it starts a JVM, give that JVM's pid, from 'tiprobe list')");
            }
            if (Arrays.asList(Launch.commandLine(pid)).contains("-XX:+DisableAttachMechanism")) {
                throw new CliException("process " + pid + " is not a JVM that accepts attach: it was started with"
                        + " -XX:+DisableAttachMechanism");
            }
        } catch (IOException | java.io.UncheckedIOException e) {
            // no /proc here, or the process just ended: the attach API answers
        }
    }

    /** The feature release of a Java version ({@code 25.0.3}, {@code 17}, {@code 1.8.0_402}: 25, 17, 8); -1 when unreadable. */
    static int feature(String version) {
        try {
            return Integer.parseInt(version.startsWith("1.") ? version.substring(2).split("[._]")[0] : version.split("[.+-]")[0]);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /**
     * The flag whose absence makes the JDK print its warning of a dynamically loaded agent in the
     * target at each load, or an empty string when it has it. (Native access the agent gives its
     * own module: no flag is needed for it.)
     */
    String missingFlags() throws CliException {
        boolean enabled = launch != null && !launch.mayHideOptions() ? launch.turnsOn(DYNAMIC_AGENT_LOADING)
                : Launch.lastSays(Launch.words(asked(() -> vm.getAgentProperties().getProperty("sun.jvm.args", ""))), DYNAMIC_AGENT_LOADING);
        return enabled ? "" : "-XX:+" + DYNAMIC_AGENT_LOADING;
    }

    /** The VM flag that keeps the JDK's warning of a dynamically loaded agent out of the target. */
    private static final String DYNAMIC_AGENT_LOADING = "EnableDynamicAgentLoading";

    /**
     * Loads the agent with {@code options} and returns its answer, a success.
     *
     * @throws CliException with the agent's own message when it answers {@code error}
     */
    Reply send(Path agentJar, String options) throws CliException {
        Path reply = Agent.tempFile("tiprobe-reply-");
        try {
            Reply answer = within(PATIENCE, "agent load", pid, () -> load(agentJar, options, reply));
            Path socket = answer.path(Reply.CONTROL_SOCKET);
            if (socket != null) sessionSocket = socket;
            return answer;
        } finally {
            Agent.delete(reply);
        }
    }

    private Reply load(Path agentJar, String options, Path reply) throws CliException {
        try {
            vm.loadAgent(agentJar.toString(), options + "," + AgentControl.option(AgentControl.REPLY, reply));
            return okOrThrow(pid, Files.readString(reply, StandardCharsets.UTF_8));
        } catch (AgentLoadException e) {
            throw new CliException("the agent did not load in " + pid + ": " + e.getMessage(), e);
        } catch (AgentInitializationException e) {
            // the agent answers every fault itself; its start throwing means it could not even do that
            throw new CliException("the agent did not load in " + pid + ": " + e.getMessage() + HEAP_HINT.formatted(pid), e);
        } catch (IOException e) {
            // The attach API's connect says a missing socket with no message: the JVM has closed it, exiting.
            String why = e instanceof FileNotFoundException && e.getMessage() == null ? "its attach socket is gone" : e.getMessage();
            throw new CliException(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)
                    ? "lost the connection to " + pid + ": " + why
                    : "process " + pid + " exited", e);
        }
    }

    /** Said where a target's silence may come from a full heap. */
    private static final String HEAP_HINT = " (is its heap full? jcmd %d GC.heap_info)";

    /**
     * Asks the running session {@code command} (status, dump, stop) over its control socket,
     * loading nothing; null when no session listens there.
     *
     * @throws CliException with the agent's own message when it answers {@code error}
     */
    Reply ask(String command) throws CliException {
        return ask(pid, controlSocket(), command);
    }

    /** {@link #ask(String)} of the session of {@code pid} at {@code controlSocket}, attached or not. */
    private static Reply ask(long pid, Path controlSocket, String command) throws CliException {
        if (!Files.exists(controlSocket)) return null;
        String answer;
        Duration patience = command.equals("status") ? STATUS_PATIENCE : PATIENCE;
        AtomicBoolean timedOut = new AtomicBoolean();
        try (SocketChannel channel = SocketChannel.open(UnixDomainSocketAddress.of(controlSocket))) {
            Thread watchdog = closeAfter(channel, patience, timedOut);
            try {
                channel.write(ByteBuffer.wrap((command + "\n").getBytes(StandardCharsets.UTF_8)));
                channel.shutdownOutput();
                answer = new String(Channels.newInputStream(channel).readAllBytes(), StandardCharsets.UTF_8);
            } finally {
                watchdog.interrupt();
            }
        } catch (IOException e) {
            if (timedOut.get()) {
                throw new CliException("the agent in " + pid + " did not answer " + command + " within " + patience.toSeconds()
                        + " s" + HEAP_HINT.formatted(pid), e);
            }
            return null;  // a socket file nobody listens on: the JVM that made it is gone
        }
        if (answer.isBlank() && !Files.exists(controlSocket)) return null;  // the session ended as it was asked
        return okOrThrow(pid, answer);
    }

    /** A blocking channel has no read timeout: closing it from another thread ends the read. Interrupt the thread once answered. */
    private static Thread closeAfter(SocketChannel channel, Duration patience, AtomicBoolean timedOut) {
        return Thread.ofVirtual().start(() -> {
            try {
                Thread.sleep(patience);
                timedOut.set(true);
                channel.close();
            } catch (InterruptedException | IOException answered) {
                // answered in time, or closed already
            }
        });
    }

    /** How long status waits for the session's answer; dump and stop, which write the recording, wait longer. */
    static final Duration STATUS_PATIENCE = Duration.ofSeconds(15);
    static final Duration PATIENCE = Duration.ofMinutes(2);

    private static Reply okOrThrow(long pid, String answer) throws CliException {
        if (answer.isBlank()) throw new CliException("the agent in " + pid + " did not answer" + HEAP_HINT.formatted(pid));
        Reply reply;
        try {
            reply = Reply.decode(answer);
        } catch (IllegalArgumentException e) {
            throw new CliException(e.getMessage(), e);
        }
        if (!reply.ok()) throw new CliException(reply.text());
        return reply;
    }

    @Override
    public void close() {
        detach(vm);
    }

    /** The pid alone: the JVM's options may hold secrets ({@code -Dpassword=…}). */
    @Override
    public String toString() {
        return "process " + pid;
    }

    private static void detach(VirtualMachine vm) {
        try {
            vm.detach();
        } catch (IOException ignored) {
            // the target may be gone
        }
    }
}
