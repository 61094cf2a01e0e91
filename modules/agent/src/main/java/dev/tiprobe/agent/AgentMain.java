package dev.tiprobe.agent;

import dev.tiprobe.agent.jvm.AgentThreads;
import dev.tiprobe.agent.jvm.ModuleAccess;
import dev.tiprobe.agent.sink.Recorder;
import dev.tiprobe.agent.tracing.Tracing;
import dev.tiprobe.ids.IdMap;
import dev.tiprobe.jvmti.Jvmti;
import dev.tiprobe.options.AgentControl;
import dev.tiprobe.options.AgentOptions;
import dev.tiprobe.probe.ProbeControl;
import dev.tiprobe.recording.ControlSocket;
import dev.tiprobe.recording.PrivateFiles;
import dev.tiprobe.recording.Reply;
import dev.tiprobe.report.Export;

import java.io.IOException;
import java.lang.instrument.Instrumentation;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;

/**
 * The agent jar's entry point: {@code -javaagent:tiprobe-agent.jar=trace=<filter>,mode=count,file=out.json}.
 * Tracing starts with the first class the application loads; the recording ({@code .tpr}) is written
 * as the session goes and finished when the JVM exits ({@code tiprobe report} reads it).
 * A bad option prints one line starting with {@code tiprobe:} and the application runs on
 * untraced; nothing here ever stops the application from starting.
 *
 * <p>The options are those of {@link AgentOptions}, which the {@code tiprobe} command formats.
 */
public final class AgentMain {
    private AgentMain() {}

    /**
     * The session this JVM runs (or ran last), shared by every load of the agent (statics survive a
     * second load). Guarded by AgentMain.class.
     */
    private static AgentSession session;
    private static Thread shutdownHook;
    /** The session's {@link #keep keeper}; null between sessions. */
    private static Thread keeper;
    /** Where the tiprobe command reaches the session; null when it could not be opened (then it loads the agent again). */
    private static ControlChannel channel;
    /** Why the channel of the running session could not be opened; null when it is open. */
    private static String channelProblem;
    /** The session {@link #premain} began, if any: the one that says at exit where its recording went. */
    private static volatile AgentSession withTheJvm;
    /** When that session's profiling starts; null before premain. */
    private static volatile ProfilingStart profilingStart;
    /** Why the last session stopped by itself (its recording removed, the heap full), until the next begins; else null. */
    private static String stoppedItself;

    /** {@code -javaagent}: classes are instrumented from the first one the application loads. */
    public static void premain(String args, Instrumentation inst) {
        ModuleAccess.use(inst);
        boolean tracing = false;
        try {
            AgentOptions options = parsed(args);
            tracing = options.tracing() != null;
            long pid = ProcessHandle.current().pid();
            Path recording = options.recordingFile(pid);
            checkWritable(recording);
            // Sampling (and kept calls' stacks) from the program's first moments: link JVMTI now, before
            // main, not after it; the callbacks' stubs meanwhile on another thread (the machine has a
            // core to spare).
            if (Profiling.wanted(options)) {
                AgentThreads.daemon("tiprobe-prelink").start(AgentMain::prelinkCallbacks);
                Jvmti.prelink();
            }
            CompletableFuture<Jvmti> jvmti = Jvmti.whenReady();
            Recorder r = Recorder.create(recording, new IdMap());
            Tracing.Session t;
            try {
                t = options.tracing() == null ? null : Tracing.startEarly(options.tracing(), r.names(), inst, jvmti);
            } catch (IOException | RuntimeException | Error e) {
                discard(r, recording, e);
                throw e;
            }
            if (t != null) Profiling.expectCallerStacks(options);  // kept calls' stacks until the walker comes
            ProfilingStart turn = ProfilingStart.of(options);
            profilingStart = turn;
            if (Profiling.wanted(options)) turn.holdProgram(inst);
            AgentSession started = begin(new AgentSession(t, null, r, options, pid), null, null);
            withTheJvm = started;
            if (Profiling.wanted(options)) profileWhenReady(jvmti, turn, options, r, started);
        } catch (Throwable t) {
            ProfilingStart turn = profilingStart;
            if (turn != null) turn.begun();  // nothing will start: a program held for it goes on
            System.err.println("tiprobe: " + message(t) + " (the application runs untraced)");
        } finally {
            // A session that only profiles never loads tracing's classes. From here main's calls are the
            // program's (if unmarking fails, they go uncounted, and the program runs as before).
            if (tracing && Tracing.probeInBootLoader()) markTiprobesWork(false);
        }
    }

    /**
     * Starts premain's profiling once JVMTI is there and its turn has come ({@link ProfilingStart}),
     * on the thread that waited for the VM; a program that ends first has its recording all the same.
     */
    private static void profileWhenReady(CompletableFuture<Jvmti> jvmti, ProfilingStart turn, AgentOptions options, Recorder r,
                                         AgentSession started) {
        jvmti.thenAccept(j -> {  // on the thread that waited for the VM
            try {
                turn.awaitTurn();
                // A program that ends first has its recording (and its traces) all the same.
                Profiling p = Profiling.start(j, options, r);
                synchronized (AgentMain.class) {
                    if (session == started && !started.closed()) {
                        started.profilingStarted(p);
                        return;
                    }
                }
                p.close();
            } catch (Throwable e) {
                System.err.println("tiprobe: profiling did not start: " + message(e));
                Profiling.noCallerStacks(options);
            }
        }).whenComplete((done, failed) -> {  // also where JVMTI never came
            if (failed != null) Profiling.noCallerStacks(options);
            turn.begun();
        });
    }

    private static void prelinkCallbacks() {
        try {
            Jvmti.prelinkCallbacks();
        } catch (Throwable t) {
            // the first registration makes the stubs itself, later
        }
    }

    /**
     * Dynamic attach, also how the {@code tiprobe} command reaches a running session: options
     * {@code command=start|status|dump|stop} (default start) and {@code reply=<path>}, a file the
     * answer goes to, a {@link Reply} (the recording's path and the output asked for are among its
     * facts). Without a reply file, errors go to the target's stderr. {@code progress=<path>} (with
     * start) names a file the status reply is written to every second.
     */
    public static void agentmain(String args, Instrumentation inst) {
        try {
            ModuleAccess.use(inst);
        } catch (Throwable t) {
            // without it, fields in closed packages stay unread; agentmain below answers the rest
        }
        agentmain(args);
    }

    /**
     * The answer when the heap could not even hold the answer: a constant, so sending it needs no
     * new string (the attach API would otherwise report only "agent failed to initialize").
     */
    private static final String NO_ROOM_TO_START = Reply.error("the target's heap is full: tiprobe does not start where its"
            + " tables could bring an OutOfMemoryError").encode() + "\n";
    private static final String NO_ROOM = Reply.error("the target's heap is full: tiprobe could not answer").encode() + "\n";

    /** As {@link #agentmain(String, Instrumentation)}, without the JDK's Instrumentation (fields in closed packages stay unread). */
    public static void agentmain(String args) {
        Path reply = null;
        Reply answer;
        String command = "start";
        try {
            AgentControl control = AgentControl.of(args);
            command = control.command();
            if (control.reply() != null) reply = Path.of(control.reply());
            answer = command.equals("start")
                    ? start(control.settings(), control.progress() == null ? null : Path.of(control.progress()), control.owner())
                    : answer(command);
        } catch (OutOfMemoryError e) {
            answer = null;
        } catch (Throwable t) {
            answer = errorOrNull(t);
        }
        // Nothing escapes: the attach API would print the exception into the target's stderr.
        try {
            if (reply == null) {
                if (answer != null && !answer.ok()) System.err.println("tiprobe: " + answer.text() + " (the application runs untraced)");
                return;
            }
            String noRoom = command.equals("start") ? NO_ROOM_TO_START : NO_ROOM;
            String line;
            try {
                line = answer == null ? noRoom : answer.encode() + "\n";
            } catch (OutOfMemoryError e) {
                line = noRoom;
            }
            String written = line;
            PrivateFiles.replace(reply, w -> w.write(written));
        } catch (OutOfMemoryError e) {
            // a heap too full to write even the answer: the command says it got none
        } catch (Throwable t) {
            try {
                System.err.println("tiprobe: cannot answer through " + reply + ": " + message(t));
            } catch (Throwable ignored) {
                // nothing escapes
            }
        }
    }

    private static Reply errorOrNull(Throwable t) {
        try {
            return Reply.error(message(t));
        } catch (Throwable full) {
            return null;
        }
    }

    /**
     * For {@link Profiler}: {@code start} (with the agent's options), {@code status}, {@code dump}
     * or {@code stop}, answered as the command is answered.
     */
    static Reply inProcess(String command, String options) {
        try {
            return command.equals("start") ? start(options, null, null) : answer(command);
        } catch (Throwable t) {
            return Reply.error(message(t));
        }
    }

    /**
     * The options of {@code args}, refusing, as the command does, an output that holds only stacks
     * from a session that takes none: its {@code tiprobe report} could not make it.
     */
    static AgentOptions parsed(String args) {
        AgentOptions options = AgentOptions.parse(args);
        String file = options.file();
        if (!options.profiling() && file != null && Export.holdsOnlyStacks(file)) {
            throw new IllegalArgumentException("file=" + file + " needs interval, alloc or lock: " + Export.ONLY_STACKS_FOR_TRACING);
        }
        return options;
    }

    /** A session is running from its start until stop or exit closes it. */
    private static boolean running() {
        return session != null && !session.closed();
    }

    private static synchronized Reply start(String args, Path progress, String owner) throws IOException {
        if (running()) return Reply.error("a session is already running; stop it first");
        AgentOptions options = parsed(args);
        String full = HeapWatch.nearlyFull();
        if (full != null) return Reply.error(full + ": tiprobe does not start where its tables could bring an OutOfMemoryError");
        // The callbacks' stubs meanwhile on another thread, as premain makes them: beside a busy
        // program and the JIT, two threads of the agent's get more of the CPU than one.
        if (Profiling.wanted(options)) AgentThreads.daemon("tiprobe-prelink").start(AgentMain::prelinkCallbacks);
        long pid = ProcessHandle.current().pid();
        Path recording = options.recordingFile(pid);
        checkWritable(recording);
        Recorder r = Recorder.create(recording, new IdMap());  // the session's one ID map: tracing's tokens and the registry's
        Tracing.Session t = null;
        Profiling s = null;
        long recordingSince;
        try {
            // Profiling before tracing: the walker that gives kept calls their stacks is there before the first probe runs.
            if (options.tracing() != null) Tracing.prepareProbe();
            if (Profiling.wanted(options)) s = Profiling.start(Jvmti.get(), options, r);
            if (options.tracing() != null) t = Tracing.start(options.tracing(), r.names());
            recordingSince = System.currentTimeMillis();
        } catch (IOException | RuntimeException | Error e) {
            if (s != null) {
                try {
                    s.close();
                } catch (IOException | RuntimeException closing) {
                    e.addSuppressed(closing);
                }
            }
            discard(r, recording, e);
            throw e;
        }
        AgentSession started = begin(new AgentSession(t, s, r, options, pid), progress, owner);
        String unreachable = channelProblem == null ? "" : "; no control socket (" + channelProblem
                + "): status will say idle, and dump and stop load the agent again";
        Reply answer = started.started().with(Reply.RECORDING_SINCE, recordingSince).append(unreachable);
        return channelProblem == null ? answer.with(Reply.CONTROL_SOCKET, controlSocket()) : answer;
    }

    /**
     * While {@code kept} is the session: writes the status line to {@code progress}, eight times a second in its first seconds
     * (how {@code tiprobe collect} shows progress without loading the agent again, which makes
     * the JDK print a warning in the target unless it runs with -XX:+EnableDynamicAgentLoading);
     * once a second stops the session when the process {@code owner} (the {@code collect} that started it) is
     * gone, so a killed command leaves no session behind, stops it too when its recording's file
     * was removed (what it would write is lost; status and stop then say why no session runs) or
     * when the application's heap stays nearly full ({@link HeapWatch}), and lets the session
     * write what it holds ({@link AgentSession#keep()}); between those looks, four times a second,
     * it retires the tokens of classes that unloaded ({@link AgentSession#retireUnloaded()}).
     */
    private static Thread keep(AgentSession kept, Path progress, String owner) {
        ProcessHandle command = owner == null ? null : commandProcess(owner);
        HeapWatch heap = new HeapWatch();
        long keptSince = System.nanoTime();
        return AgentThreads.daemon("tiprobe-session").start(() -> {
            while (true) {
                try {
                    if (!keptAfterALook(kept, command, heap, progress)) return;
                    writeStatus(progress);
                    for (int eighth = 1; eighth <= 8; eighth++) {
                        Thread.sleep(125);
                        if (eighth % 2 == 0) kept.retireUnloaded();  // tokens go as soon as the engines have written past their classes' unload
                        // The command reads the line once a second, out of step with this loop: in
                        // the first seconds, a line an eighth old at most, where a second-old one
                        // showed 5 of a first second's 100 samples. Later, a second's lag is a small part.
                        if (eighth < 8 && System.nanoTime() - keptSince < FRESH_STATUS_NANOS) writeStatusWhileKept(kept, progress);
                    }
                } catch (InterruptedException ended) {
                    return;  // the session ended
                } catch (OutOfMemoryError e) {
                    // The keeper's own work found no room: in a heap that full, every look may end
                    // here, and the session must stop all the same.
                    try {
                        synchronized (AgentMain.class) {
                            if (session != kept || !running()) return;
                            if (heap.lookFailed(e)) {
                                stopInAFullHeap(heap, progress);
                                return;
                            }
                        }
                        Thread.sleep(1000);
                    } catch (InterruptedException ended) {
                        return;
                    } catch (Throwable again) {
                        // the next second tries again
                    }
                } catch (Throwable t) {
                    // One bad second must not end the watch: say so once the session still runs, and go on.
                    synchronized (AgentMain.class) {
                        if (session != kept || !running()) return;
                    }
                    if (!(t instanceof OutOfMemoryError)) System.err.println("tiprobe: the session's keeper: " + message(t));
                    try {
                        Thread.sleep(1000);
                    } catch (InterruptedException ended) {
                        return;
                    }
                }
            }
        });
    }

    /**
     * The keeper's look, under the class's lock: false once {@code kept} no longer runs, stopped
     * by this look (its command gone, its recording removed, the heap full, over the ceiling) or
     * before it; else the session has written what it holds.
     */
    private static boolean keptAfterALook(AgentSession kept, ProcessHandle command, HeapWatch heap, Path progress) throws IOException {
        synchronized (AgentMain.class) {
            if (session != kept || !running()) return false;
            if (command != null && !command.isAlive()) {
                stop();
                return false;
            }
            Path removed = kept.recordingRemoved();
            if (removed != null) {
                stopItself("its recording " + removed + " was removed", progress);
                return false;
            }
            if (heap.look()) {
                stopInAFullHeap(heap, progress);
                return false;
            }
            String overCeiling = kept.keep();
            if (overCeiling != null) {
                stopItself(overCeiling, progress);
                return false;
            }
            return true;
        }
    }

    /**
     * Stops the session because its heap stayed nearly full: first the heap held back for
     * answering goes to the application (finishing the recording needs room), then the reason is
     * kept, in words made beforehand should the figures find no room. Holding the class's lock.
     */
    private static void stopInAFullHeap(HeapWatch heap, Path progress) throws IOException {
        ControlChannel.giveBackReserve();
        stoppedItself = HeapWatch.FULL_WORDS;
        stopItself(heap.why(), progress);
    }

    /** Stops the session for {@code why}, kept first so that a stop that fails in a full heap still leaves it. Holding the class's lock. */
    private static void stopItself(String why, Path progress) throws IOException {
        stoppedItself = why;
        leaveStoppedNote(why);
        stop();
        writeStatus(progress);  // idle: collect ends early
    }

    /**
     * Leaves {@code why} beside the socket for status and stop, before the stop (which finishing
     * the recording may leave a full heap without room for), removed when the JVM exits.
     */
    private static void leaveStoppedNote(String why) {
        try {
            Path socket = controlSocket();
            ControlSocket.leaveStoppedNote(socket, ControlSocket.startMillis(ProcessHandle.current()), why);
            ControlSocket.stoppedNoteFile(socket).toFile().deleteOnExit();
        } catch (Throwable noRoom) {
            // status and stop then attach and ask, which answers the same where the heap has room
        }
    }

    /** Where this JVM's session listens for the tiprobe command. */
    private static Path controlSocket() {
        return ControlSocket.path(Path.of(System.getProperty("java.io.tmpdir")), System.getProperty("user.name"),
                ProcessHandle.current().pid());
    }

    /**
     * The process of {@code owner} ({@code <pid>:<start, epoch ms>}), or null when the target
     * cannot see it as the command saw itself: a command in another pid namespace, whose pid
     * here is another process or none, is not watched.
     */
    private static ProcessHandle commandProcess(String owner) {
        try {
            String[] parts = owner.split(":");
            ProcessHandle p = ProcessHandle.of(Long.parseLong(parts[0])).orElse(null);
            long started = parts.length > 1 ? Long.parseLong(parts[1]) : -1;
            return p != null && ControlSocket.sameStart(started, ControlSocket.startMillis(p)) ? p : null;
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** How long after its start a session's status line is written eight times a second; once a second after. */
    private static final long FRESH_STATUS_NANOS = 3_000_000_000L;

    /** {@link #writeStatus}, while {@code kept} is the running session. */
    private static synchronized void writeStatusWhileKept(AgentSession kept, Path progress) throws IOException {
        if (session == kept && running()) writeStatus(progress);
    }

    /** The status reply into {@code progress}, the file collect reads each second; nothing without one. */
    private static void writeStatus(Path progress) throws IOException {
        if (progress == null) return;
        String line = status().encode();
        PrivateFiles.replace(progress, w -> w.write(line + "\n"));
    }

    /**
     * Idle and why, or the running session's counts, composed outside the class's lock: in a heap its collector
     * thrashes, composing them can take seconds, and the keeper, whose looks stop the session in
     * such a heap, must not wait behind them (nor behind a command asking again and again).
     */
    private static Reply status() {
        AgentSession running;
        synchronized (AgentMain.class) {
            if (!running()) return Reply.ok(Reply.IDLE, "idle" + whyIdle()).with(Reply.WHY, stoppedItself);
            running = session;
        }
        return running.status();
    }

    /** Why the last session ended by itself, for status and stop: {@code " (the last session stopped itself: …)"}, or nothing. */
    private static String whyIdle() {
        return stoppedItself == null ? "" : ControlSocket.lastStopped(stoppedItself);
    }

    private static synchronized Reply dump() throws IOException {
        return running() ? session.dump() : Reply.error("no session is running" + whyIdle());
    }

    private static synchronized Reply stop() {
        if (!running()) return Reply.error("no session is running" + whyIdle());
        try {
            return session.close(false).reply();
        } finally {
            end();
        }
    }

    /**
     * Makes {@code started} the session, finished at exit unless stopped first, opens its control
     * channel and starts its {@link #keep keeper}.
     */
    private static synchronized AgentSession begin(AgentSession started, Path progress, String owner) {
        stoppedItself = null;
        session = started;
        keeper = keep(started, progress, owner);
        shutdownHook = new ShutdownHook(() -> {
            ProfilingStart turn = profilingStart;
            if (started == withTheJvm && turn != null) turn.hurry();  // outside finish's lock, which the start takes
            finish(started);
        }, started.traces());
        Runtime.getRuntime().addShutdownHook(shutdownHook);
        try {
            ControlSocket.removeStoppedNote(controlSocket());  // the last session's: this one runs
        } catch (IOException | RuntimeException e) {
            // a note that stays says idle to status and stop while this session runs: they then attach and ask
        }
        try {
            channel = ControlChannel.open(controlSocket(), command -> answer(command).encode());
            channelProblem = null;
        } catch (IOException | RuntimeException e) {
            channel = null;  // the command then reaches the session by loading the agent again
            channelProblem = message(e);
        }
        return started;
    }

    /**
     * The thread that finishes a session at exit. The JVM starts shutdown hooks on the thread that
     * exits, one of the program's: in a session that traces, its start is marked as tiprobe's work,
     * so that a program whose {@code Thread::start} is traced counts only the threads it started.
     */
    private static final class ShutdownHook extends Thread {
        private final boolean traces;

        ShutdownHook(Runnable finish, boolean traces) {
            super(finish, "tiprobe-shutdown");
            this.traces = traces;
        }

        @Override
        public void start() {
            boolean marked = traces && markTiprobesWork(true);  // without tracing, the probe's classes may not be loadable
            try {
                super.start();
            } finally {
                if (traces) markTiprobesWork(marked);
            }
        }
    }

    /**
     * {@link ProbeControl#tiprobesWork}, never failing its caller (the agent's start, the shutdown
     * hook's): a mark that cannot be set or cleared only changes what is counted. Returns whether
     * the thread was marked before (false when marking failed).
     */
    private static boolean markTiprobesWork(boolean on) {
        try {
            return ProbeControl.tiprobesWork(on);
        } catch (Throwable t) {
            return false;
        }
    }

    /** The answer to {@code status}, {@code dump} or {@code stop}, through the control channel or a load of the agent. */
    private static Reply answer(String command) {
        try {
            return switch (command) {
                case "status" -> status();
                case "dump" -> dump();
                case "stop" -> stop();
                default -> Reply.error("unknown command '" + command + "': use start, status, dump or stop");
            };
        } catch (Throwable t) {
            return Reply.error(message(t));
        }
    }

    /** The session is over: no channel, no shutdown hook left behind. */
    private static synchronized void end() {
        if (channel != null) channel.close();
        channel = null;
        if (keeper != null && keeper != Thread.currentThread()) keeper.interrupt();
        keeper = null;
        if (shutdownHook != null && Thread.currentThread() != shutdownHook) {
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException exiting) {
                // the JVM is shutting down; the hook runs or has run
            }
        }
        shutdownHook = null;
    }

    /** At exit: the results of a session nobody stopped. */
    private static synchronized void finish(AgentSession ending) {
        if (session != ending || ending.closed()) return;
        AgentSession.Ending ended = ending.close(true);
        for (String problem : ended.problems()) System.err.println("tiprobe: " + problem);
        if (ended.unmatchedFilter() != null && !ending.quiet()) {
            System.err.println("tiprobe: the filter '" + ended.unmatchedFilter() + "' matched no method");  // else the command says it
        }
        // Only a session that began with the JVM, by hand: tiprobe run says it itself, and an
        // attached session's target is left untouched (its command is gone).
        String where = ending != withTheJvm || ending.quiet() || !ended.problems().isEmpty() ? null : exitLine(ended.reply());
        if (where != null) System.err.println("tiprobe: " + where);
        end();
    }

    /**
     * A session started with the JVM ({@code -javaagent} by hand) says at exit where its recording
     * went and how to make the output asked for from it: {@code recording in /tmp/out.tpr (tiprobe
     * report /tmp/out.tpr -f /tmp/out.json makes out.json)}. Where the reply names no recording:
     * for a loop none of whose periods had samples, that no profile was written; else null.
     */
    static String exitLine(Reply reply) {
        Path recording = reply.path(Reply.RECORDING);
        Path output = reply.path(Reply.OUTPUT);
        if (recording == null) return reply.fact(Reply.NO_PROFILE) != null ? AgentSession.NO_PROFILE : null;  // a loop's, idle throughout
        if (Export.PPROF.names(recording.toString())) return "profiles in " + recording.getParent() + " (the last: " + recording.getFileName() + ")";  // a loop's own
        if (output == null || output.equals(recording)) return "recording in " + recording;
        return "recording in " + recording + " (tiprobe report " + recording + " -f " + output + " makes " + output.getFileName() + ")";
    }

    private static String message(Throwable t) {
        return AgentSession.message(t);
    }

    /** A session that did not start leaves no recording: closes and deletes it, its failures added to {@code why}. */
    private static void discard(Recorder r, Path recording, Throwable why) {
        try {
            r.close();
            Files.deleteIfExists(recording);
        } catch (IOException | RuntimeException e) {
            why.addSuppressed(e);
        }
    }

    /** Fails at start, not at exit, when the output cannot be written. */
    static void checkWritable(Path file) throws IOException {
        String directory = PrivateFiles.directoryProblem(file);
        if (directory != null) throw new IOException("cannot write " + file + ": " + directory);
        Path dir = file.toAbsolutePath().getParent();
        if (Files.isDirectory(file)) throw new IOException("cannot write " + file + ": it is a directory");
        if (!Files.isWritable(dir) || (Files.exists(file) && !Files.isWritable(file))) {
            throw new IOException("cannot write " + file + ": permission denied");
        }
        Path probe = dir.resolve("." + file.getFileName() + ".tiprobe-check");
        try {
            PrivateFiles.create(probe);
        } catch (FileAlreadyExistsException ignored) {
            // a stale check file from an earlier run: writable enough
        } catch (IOException e) {
            throw new IOException("cannot write " + file + ": " + PrivateFiles.whyNotWritten(e, file), e);
        } finally {
            Files.deleteIfExists(probe);
        }
    }
}
