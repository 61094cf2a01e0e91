package dev.tiprobe.agent;

import dev.tiprobe.filter.MethodFilter;
import dev.tiprobe.ids.IdMap;
import dev.tiprobe.jvmti.Jvmti;
import dev.tiprobe.report.ControlSocket;
import dev.tiprobe.report.PrivateFiles;

import java.io.IOException;
import java.lang.instrument.Instrumentation;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The agent jar's entry point: {@code -javaagent:tiprobe-agent.jar=trace=<filter>,mode=count,file=out.json}.
 * Tracing starts as soon as JVMTI is reachable and the JSON summary is written when the JVM exits.
 * A bad option prints one line starting with {@code tiprobe:} and the application runs on
 * untraced; nothing here ever stops the application from starting.
 *
 * <p>Options (comma-separated): {@code trace} the filter, {@code mode} count, time or trace
 * (default count), {@code file} the JSON output (default {@code tiprobe-%p.json}; {@code %p} is the
 * pid, {@code %t} a timestamp), and for trace mode {@code rate} calls per second (default 10000, 0
 * for no cap), {@code sample} record one call in n (default 1), {@code maxcalls} (default 100000),
 * {@code maxstring} (default 100), {@code maxelements} (default 8), {@code tostring} (describe
 * other objects by their toString()), {@code overhead} the most the probes may add, in percent of the
 * program's CPU (default 5; the hottest methods lose their probes above it; 0 for no limit). Stack sampling, alone or with tracing: {@code interval}
 * (e.g. 10ms), {@code samplemode} wall or cpu, {@code depth} (default 2048), {@code threads} thread-name
 * globs to sample, separated by {@code ;} (default: all), {@code recording}
 * (default: the results file with {@code .tpr} for {@code .json}).
 */
public final class AgentMain {
    private AgentMain() {}

    /**
     * Parsed agent options: tracing, sampling, or both (either may be null, not both); the JSON
     * results file (tracing) and the recording (every session).
     */
    record AgentOptions(Tracing.Options tracing, Path file, Sampler.Options sampling, Path recording) {}

    /**
     * The session this JVM runs, shared by every load of the agent (statics survive a second
     * load): method tracing, stack sampling, or both. Guarded by AgentMain.class.
     */
    private static Tracing.Session tracing;
    private static Sampler sampler;
    private static Recorder recorder;
    private static Path resultsFile;
    private static Object owner;  // identifies the running session for its shutdown hook
    private static Thread shutdownHook;
    /** Where the tiprobe command reaches the session; null when it could not be opened (then it loads the agent again). */
    private static ControlChannel channel;

    /** {@code -javaagent}: classes are instrumented from the first one the application loads. */
    public static void premain(String args, Instrumentation inst) {
        try {
            AgentOptions options = parse(args, ProcessHandle.current().pid());
            checkWritable(options);
            // Sampling from the program's first moments: link JVMTI now, before main, not after it.
            if (options.sampling() != null) Jvmti.prelink();
            CompletableFuture<Jvmti> jvmti = Jvmti.whenReady();
            Tracing.Session t = options.tracing() == null ? null : Tracing.startEarly(options.tracing(), inst, jvmti);
            Recorder r = Recorder.create(options.recording(), new IdMap());
            Object session = begin(t, null, r, options.file());
            if (options.sampling() != null) {
                jvmti.thenAccept(j -> {
                    try {
                        // A program that ends first has its recording (and its traces) all the same.
                        Sampler s = Sampler.start(j, options.sampling(), r);
                        synchronized (AgentMain.class) {
                            if (owner == session) {
                                sampler = s;
                                return;
                            }
                        }
                        s.close();
                    } catch (Throwable e) {
                        System.err.println("tiprobe: sampling did not start: " + message(e));
                    }
                });
            }
        } catch (Throwable t) {
            System.err.println("tiprobe: " + message(t) + " (the application runs untraced)");
        }
    }

    /**
     * Dynamic attach, also how the {@code tiprobe} command reaches a running session: options
     * {@code command=start|status|dump|stop} (default start) and {@code reply=<path>}, a file the
     * answer goes to, one line starting with {@code ok} or {@code error}. Without a reply file,
     * errors go to the target's stderr. {@code progress=<path>} (with start) names a file the
     * status line is written to every second.
     */
    public static void agentmain(String args) {
        Path reply = null;
        String answer;
        try {
            String command = "start";
            Path progress = null;
            StringBuilder rest = new StringBuilder();
            for (String option : (args == null ? "" : args).split(",")) {
                if (option.startsWith("command=")) command = option.substring("command=".length()).trim();
                else if (option.startsWith("reply=")) reply = Path.of(option.substring("reply=".length()).trim());
                else if (option.startsWith("progress=")) progress = Path.of(option.substring("progress=".length()).trim());
                else if (!option.isBlank()) rest.append(rest.isEmpty() ? "" : ",").append(option);
            }
            answer = command.equals("start") ? start(rest.toString(), progress) : answer(command);
        } catch (Throwable t) {
            answer = "error: " + message(t);
        }
        if (reply == null) {
            if (answer.startsWith("error")) System.err.println("tiprobe: " + answer.substring("error: ".length()) + " (the application runs untraced)");
            return;
        }
        try {
            String line = answer;
            PrivateFiles.replace(reply, w -> w.write(line + "\n"));
        } catch (Throwable t) {
            System.err.println("tiprobe: cannot answer through " + reply + ": " + message(t));
        }
    }

    private static boolean running() {
        return (tracing != null && tracing.running()) || (sampler != null && sampler.running());
    }

    private static synchronized String start(String args, Path progress) throws IOException {
        if (running()) return "error: a session is already running; stop it first";
        AgentOptions options = parse(args, ProcessHandle.current().pid());
        checkWritable(options);
        Tracing.Session t = options.tracing() == null ? null : Tracing.start(options.tracing());
        Sampler s = null;
        Recorder r = null;
        try {
            r = Recorder.create(options.recording(), new IdMap());
            if (options.sampling() != null) s = Sampler.start(Jvmti.get(), options.sampling(), r);
        } catch (IOException | RuntimeException e) {
            if (t != null) t.stop();
            if (r != null) r.close();
            throw e;
        }
        begin(t, s, r, options.file());
        if (progress != null) reportProgress(owner, progress);
        StringBuilder answer = new StringBuilder("ok started:");
        if (t != null) {
            Results now = t.snapshot();
            answer.append(' ').append(now.methods().size()).append(" methods instrumented, mode ").append(mode(now))
                    .append(leftUnchanged(now)).append(", results go to ").append(options.file().toAbsolutePath())
                    .append(broad(now, options.tracing()));
        }
        if (s != null) {
            answer.append(t != null ? ";" : "").append(" sampling every ").append(options.sampling().interval().toMillis())
                    .append(" ms (").append(options.sampling().mode().name().toLowerCase()).append(")");
        }
        answer.append("; recording to ").append(r.file().toAbsolutePath());
        return answer.toString();
    }

    /**
     * Writes the status line to {@code file} every second while the session runs: how
     * {@code tiprobe collect} shows progress without loading the agent again (each load makes
     * the JDK print a warning in the target unless it runs with -XX:+EnableDynamicAgentLoading).
     */
    private static void reportProgress(Object session, Path file) {
        Thread t = new Thread(() -> {
            try {
                while (true) {
                    synchronized (AgentMain.class) {
                        if (owner != session || !running()) return;
                    }
                    String line = status();
                    PrivateFiles.replace(file, w -> w.write(line + "\n"));
                    Thread.sleep(1000);
                }
            } catch (Throwable ignored) {
                // progress is a courtesy; the session goes on without it
            }
        }, "tiprobe-progress");
        t.setDaemon(true);
        t.start();
    }

    private static synchronized String status() {
        if (!running()) return "ok idle";
        StringBuilder b = new StringBuilder("ok running:");
        if (tracing != null) {
            Results now = tracing.snapshot();
            b.append(" mode ").append(mode(now)).append(", filter ").append(now.filter()).append(", ")
                    .append(now.methods().size()).append(" methods, ").append(calls(now)).append(" calls so far, results go to ")
                    .append(resultsFile.toAbsolutePath());
        }
        if (sampler != null) b.append(tracing != null ? ";" : "").append(' ').append(sampler.samples()).append(" samples so far");
        return b.append("; recording to ").append(recorder.file().toAbsolutePath()).toString();
    }

    private static synchronized String dump() throws IOException {
        if (!running()) return "error: no session is running";
        StringBuilder b = new StringBuilder("ok dumped:");
        if (tracing != null) {
            Results now = tracing.snapshot();
            write(now, resultsFile);
            recorder.trace(now, false);
            b.append(' ').append(now.methods().size()).append(" methods, ").append(calls(now)).append(" calls to ")
                    .append(resultsFile.toAbsolutePath()).append(removed(now));
        }
        if (sampler != null) {
            sampler.flush();
            b.append(tracing != null ? ";" : "").append(' ').append(sampler.samples()).append(" samples");
        }
        return b.append("; recording in ").append(recorder.file().toAbsolutePath()).toString();
    }

    private static synchronized String stop() throws IOException {
        if (!running()) return "error: no session is running";
        owner = null;  // the shutdown hook of this session has nothing left to do
        StringBuilder b = new StringBuilder("ok stopped:");
        Tracing.Session t = tracing;
        Sampler s = sampler;
        Recorder r = recorder;
        try {
            if (t != null) {
                Results last = t.stop();
                write(last, resultsFile);
                r.trace(last, true);
                b.append(' ').append(last.methods().size()).append(" methods, ").append(calls(last)).append(" calls written to ")
                        .append(resultsFile.toAbsolutePath()).append("; classes restored").append(leftUnchanged(last))
                        .append(removed(last));
            }
            if (s != null) {
                s.close();
                b.append(t != null ? ";" : "").append(' ').append(s.samples()).append(" samples");
            }
        } finally {
            r.close();
            end();
        }
        return b.append("; recording in ").append(r.file().toAbsolutePath()).toString();
    }

    /** More methods than this, and the start answer says what the budget will do. */
    private static final int BROAD = 1000;

    /** {@code ; the filter matches 8268 methods: ...} for a broad filter, else empty. */
    private static String broad(Results r, Tracing.Options options) {
        if (r.methods().size() <= BROAD) return "";
        return "; the filter matches " + r.methods().size() + " methods: " + (options.overheadBudget() > 0
                ? "probes come out of the hottest if they cost over " + Results.percent(options.overheadBudget())
                        + " % of the program's CPU (--overhead to change)"
                : "with no overhead limit, the program may slow down many times");
    }

    /** {@code ; 212 methods' probes removed ...} when the budget took some out, else empty. */
    private static String removed(Results r) {
        String summary = r.removedSummary();
        return summary == null ? "" : "; " + summary;
    }

    /** {@code , 2 classes left unchanged (the first: ...)} when tracing could not change some classes, else empty. */
    private static String leftUnchanged(Results r) {
        List<String> failures = r.classFailures();
        return failures.isEmpty() ? "" : ", " + failures.size() + (failures.size() == 1 ? " class" : " classes")
                + " left unchanged (the first: " + failures.getFirst() + ")";
    }

    private static String mode(Results r) {
        return r.mode().name().toLowerCase();
    }

    private static long calls(Results r) {
        return r.methods().stream().mapToLong(Results.MethodResult::calls).sum();
    }

    /**
     * Makes {@code t}, {@code s} and {@code r} the session, finished at exit unless stopped first,
     * and opens its control channel; returns its identity.
     */
    private static synchronized Object begin(Tracing.Session t, Sampler s, Recorder r, Path file) {
        Object session = new Object();
        owner = session;
        tracing = t;
        sampler = s;
        recorder = r;
        resultsFile = file;
        shutdownHook = new Thread(() -> finish(session), "tiprobe-shutdown");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
        try {
            channel = ControlChannel.open(ControlSocket.path(Path.of(System.getProperty("java.io.tmpdir")),
                    System.getProperty("user.name"), ProcessHandle.current().pid()), AgentMain::answer);
        } catch (IOException | RuntimeException e) {
            channel = null;  // the command then reaches the session by loading the agent again
        }
        return session;
    }

    /** The answer to {@code status}, {@code dump} or {@code stop}, through the control channel or a load of the agent. */
    private static String answer(String command) {
        try {
            return switch (command) {
                case "status" -> status();
                case "dump" -> dump();
                case "stop" -> stop();
                default -> "error: unknown command '" + command + "': use start, status, dump or stop";
            };
        } catch (Throwable t) {
            return "error: " + message(t);
        }
    }

    /** The session is over: no channel, no shutdown hook left behind. */
    private static synchronized void end() {
        if (channel != null) channel.close();
        channel = null;
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
    private static void finish(Object session) {
        Tracing.Session t;
        Sampler s;
        Recorder r;
        Path file;
        synchronized (AgentMain.class) {
            if (owner != session) return;
            owner = null;
            t = tracing;
            s = sampler;
            r = recorder;
            file = resultsFile;
        }
        try {
            if (s != null) s.close();
        } catch (Throwable e) {
            System.err.println("tiprobe: could not finish the recording: " + message(e));
        }
        if (t != null) {
            try {
                Results results = t.stop();
                write(results, file);
                r.trace(results, true);
                if (results.methods().isEmpty()) {
                    System.err.println("tiprobe: the filter '" + results.filter() + "' matched no method");
                }
            } catch (Throwable e) {
                System.err.println("tiprobe: could not write " + file + ": " + message(e));
            }
        }
        try {
            r.close();
        } catch (Throwable e) {
            System.err.println("tiprobe: could not finish the recording: " + message(e));
        }
        end();
    }

    private static String message(Throwable t) {
        return t.getMessage() != null && !(t instanceof LinkageError) ? t.getMessage() : t.toString();
    }

    /** Writes the JSON summary, readable by the owner only where the file system allows. */
    static void write(Results results, Path file) throws IOException {
        PrivateFiles.replace(file, w -> ResultsJson.write(results, w));
    }

    private static void checkWritable(AgentOptions options) throws IOException {
        if (options.tracing() != null) checkWritable(options.file());
        checkWritable(options.recording());
    }

    /** Fails at start, not at exit, when the output cannot be written. */
    static void checkWritable(Path file) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        if (dir == null || !Files.isDirectory(dir)) throw new IOException("cannot write " + file + ": no such directory " + dir);
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
            throw new IOException("cannot write " + file + ": " + e.getMessage(), e);
        } finally {
            Files.deleteIfExists(probe);
        }
    }

    /**
     * Parses {@code key=value,...}.
     *
     * @throws IllegalArgumentException with a one-line message for a bad option or filter
     */
    static AgentOptions parse(String args, long pid) {
        String filter = null;
        Tracing.Mode mode = Tracing.Mode.COUNT;
        String file = "tiprobe-%p.json";
        Tracing.TraceLimits d = Tracing.TraceLimits.DEFAULT;
        long rate = d.perSecond();
        int sample = d.everyNth();
        int maxString = d.maxString();
        int maxElements = d.maxElements();
        boolean toString = d.callToString();
        int maxCalls = d.maxCalls();
        double overhead = Tracing.Options.DEFAULT_BUDGET;
        Duration interval = null;
        Sampler.Mode sampleMode = Sampler.Mode.WALL;
        int depth = Sampler.Options.DEFAULT_DEPTH;
        String sampleThreads = null;
        String recording = null;
        if (args == null || args.isBlank()) {
            throw new IllegalArgumentException("no options: use trace=<filter>[,mode=count|time|trace][,file=<path>] and/or interval=<10ms>");
        }
        for (String option : args.split(",")) {
            int eq = option.indexOf('=');
            String key = (eq < 0 ? option : option.substring(0, eq)).trim();
            String value = eq < 0 ? "" : option.substring(eq + 1).trim();
            switch (key) {
                case "trace" -> filter = value;
                case "mode" -> mode = switch (value) {
                    case "count" -> Tracing.Mode.COUNT;
                    case "time" -> Tracing.Mode.TIME;
                    case "trace" -> Tracing.Mode.TRACE;
                    default -> throw new IllegalArgumentException("mode must be count, time or trace, not '" + value + "'");
                };
                case "file" -> file = value;
                case "rate" -> rate = number(key, value);
                case "sample" -> sample = (int) number(key, value);
                case "maxcalls" -> maxCalls = (int) number(key, value);
                case "maxstring" -> maxString = (int) number(key, value);
                case "maxelements" -> maxElements = (int) number(key, value);
                case "tostring" -> toString = value.isEmpty() || Boolean.parseBoolean(value);
                case "overhead" -> overhead = percent(key, value);
                case "interval" -> interval = duration(key, value);
                case "samplemode" -> sampleMode = switch (value) {
                    case "wall" -> Sampler.Mode.WALL;
                    case "cpu" -> Sampler.Mode.CPU;
                    default -> throw new IllegalArgumentException("samplemode must be wall or cpu, not '" + value + "'");
                };
                case "depth" -> depth = (int) number(key, value);
                case "threads" -> sampleThreads = value;
                case "recording" -> recording = value;
                default -> throw new IllegalArgumentException("unknown option '" + key + "'");
            }
        }
        if (filter == null && interval == null) throw new IllegalArgumentException("missing trace=<filter> (or interval=<duration> to sample)");
        Path results = Path.of(expand(file, pid));
        Tracing.Options tracing = null;
        if (filter != null) {
            Tracing.TraceLimits limits = new Tracing.TraceLimits(rate, sample, maxCalls, maxString, maxElements, toString);
            tracing = new Tracing.Options(MethodFilter.parse(filter), mode, limits, overhead);
        }
        Sampler.Options sampling = interval == null ? null : new Sampler.Options(interval, sampleMode, depth, sampleThreads);
        Path to = recording != null ? Path.of(expand(recording, pid)) : recordingBeside(results);
        return new AgentOptions(tracing, results, sampling, to);
    }

    /** {@code out.json} records to {@code out.tpr}. */
    static Path recordingBeside(Path results) {
        String name = results.getFileName().toString();
        String base = name.endsWith(".json") ? name.substring(0, name.length() - ".json".length()) : name;
        return results.resolveSibling(base + ".tpr");
    }

    /** {@code 10ms}, {@code 1s}, or a plain number of milliseconds. */
    private static Duration duration(String key, String value) {
        try {
            Duration d = value.endsWith("ms") ? Duration.ofMillis(Long.parseLong(value.substring(0, value.length() - 2)))
                    : value.endsWith("s") ? Duration.ofSeconds(Long.parseLong(value.substring(0, value.length() - 1)))
                    : Duration.ofMillis(Long.parseLong(value));
            if (d.isNegative() || d.isZero()) throw new NumberFormatException();
            return d;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a positive duration such as 10ms, not '" + value + "'");
        }
    }

    /** A percentage such as {@code 5} or {@code 2.5}, as a share (0.05); 0 means no limit. */
    private static double percent(String key, String value) {
        try {
            double p = Double.parseDouble(value.endsWith("%") ? value.substring(0, value.length() - 1) : value);
            if (!(p >= 0 && p <= 1000)) throw new NumberFormatException();
            return p / 100;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a percentage such as 5 (0: no limit), not '" + value + "'");
        }
    }

    private static long number(String key, String value) {
        try {
            long n = Long.parseLong(value);
            if (n < 0) throw new NumberFormatException();
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a non-negative number, not '" + value + "'");
        }
    }

    /** {@code %p}: the pid; {@code %t}: local time as yyyyMMdd-HHmmss. */
    static String expand(String file, long pid) {
        return file.replace("%p", Long.toString(pid))
                .replace("%t", LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
    }
}
