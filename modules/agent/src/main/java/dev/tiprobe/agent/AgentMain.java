package dev.tiprobe.agent;

import dev.tiprobe.jvmti.Jvmti;

import java.io.IOException;
import java.io.Writer;
import java.lang.instrument.Instrumentation;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

/**
 * The agent jar's entry point: {@code -javaagent:tiprobe-agent.jar=trace=<filter>,mode=count,file=out.json}.
 * Tracing starts as soon as JVMTI is reachable and the JSON summary is written when the JVM exits.
 * A bad option prints one line starting with {@code tiprobe:} and the application runs on
 * untraced; nothing here ever stops the application from starting.
 *
 * <p>Options (comma-separated): {@code trace} the filter (required), {@code mode} count, time or
 * trace (default count), {@code file} the JSON output (default {@code tiprobe-%p.json}; {@code %p}
 * is the pid, {@code %t} a timestamp), and for trace mode {@code rate} calls per second (default
 * 10000, 0 for no cap), {@code sample} record one call in n (default 1), {@code maxcalls} (default
 * 100000), {@code maxstring} (default 100), {@code maxelements} (default 8), {@code tostring}
 * (describe other objects by their toString()).
 */
public final class AgentMain {
    private AgentMain() {}

    /** Parsed agent options. */
    record AgentOptions(Tracing.Options tracing, Path file) {}

    /** The session this JVM runs, shared by every load of the agent (statics survive a second load). */
    private static Tracing.Session session;
    private static Path sessionFile;
    private static boolean written;

    /** {@code -javaagent}: classes are instrumented from the first one the application loads. */
    public static void premain(String args, Instrumentation inst) {
        try {
            AgentOptions options = parse(args, ProcessHandle.current().pid());
            checkWritable(options.file());
            begin(Tracing.startEarly(options.tracing(), inst, Jvmti.whenReady()), options.file());
        } catch (Throwable t) {
            System.err.println("tiprobe: " + message(t) + " (the application runs untraced)");
        }
    }

    /**
     * Dynamic attach, also how the {@code tiprobe} command reaches a running session: options
     * {@code command=start|status|dump|stop} (default start) and {@code reply=<path>}, a file the
     * answer goes to, one line starting with {@code ok} or {@code error}. Without a reply file,
     * errors go to the target's stderr.
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
            answer = switch (command) {
                case "start" -> start(rest.toString(), progress);
                case "status" -> status();
                case "dump" -> dump();
                case "stop" -> stop();
                default -> "error: unknown command '" + command + "': use start, status, dump or stop";
            };
        } catch (Throwable t) {
            answer = "error: " + message(t);
        }
        if (reply == null) {
            if (answer.startsWith("error")) System.err.println("tiprobe: " + answer.substring("error: ".length()) + " (the application runs untraced)");
            return;
        }
        try {
            Files.deleteIfExists(reply);
            createPrivate(reply);
            Files.writeString(reply, answer + "\n", StandardCharsets.UTF_8);
        } catch (Throwable t) {
            System.err.println("tiprobe: cannot answer through " + reply + ": " + message(t));
        }
    }

    private static synchronized String start(String args, Path progress) throws IOException {
        if (session != null && session.running()) return "error: a session is already running; stop it first";
        AgentOptions options = parse(args, ProcessHandle.current().pid());
        checkWritable(options.file());
        Tracing.Session started = Tracing.start(options.tracing());
        begin(started, options.file());
        if (progress != null) reportProgress(started, progress);
        Results now = started.snapshot();
        return "ok started: " + now.methods().size() + " methods instrumented, mode " + mode(now) + ", results go to "
                + options.file().toAbsolutePath();
    }

    /**
     * Writes the status line to {@code file} every second while the session runs: how
     * {@code tiprobe collect} shows progress without loading the agent again (each load makes
     * the JDK print a warning in the target unless it runs with -XX:+EnableDynamicAgentLoading).
     */
    private static void reportProgress(Tracing.Session watched, Path file) {
        Thread t = new Thread(() -> {
            try {
                while (watched.running()) {
                    String line = status();
                    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
                    Files.deleteIfExists(tmp);
                    createPrivate(tmp);
                    Files.writeString(tmp, line + "\n", StandardCharsets.UTF_8);
                    Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
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
        if (session == null || !session.running()) return "ok idle";
        Results now = session.snapshot();
        return "ok running: mode " + mode(now) + ", filter " + now.filter() + ", " + now.methods().size() + " methods, "
                + calls(now) + " calls so far, results go to " + sessionFile.toAbsolutePath();
    }

    private static synchronized String dump() throws IOException {
        if (session == null || !session.running()) return "error: no session is running";
        Results now = session.snapshot();
        write(now, sessionFile);
        return "ok dumped: " + now.methods().size() + " methods, " + calls(now) + " calls to " + sessionFile.toAbsolutePath();
    }

    private static synchronized String stop() throws IOException {
        if (session == null || !session.running()) return "error: no session is running";
        Results last = session.stop();
        write(last, sessionFile);
        written = true;
        return "ok stopped: " + last.methods().size() + " methods, " + calls(last) + " calls written to "
                + sessionFile.toAbsolutePath() + "; classes restored";
    }

    private static String mode(Results r) {
        return r.mode().name().toLowerCase();
    }

    private static long calls(Results r) {
        return r.methods().stream().mapToLong(Results.MethodResult::calls).sum();
    }

    private static synchronized void begin(Tracing.Session started, Path file) {
        session = started;
        sessionFile = file;
        written = false;
        Tracing.Session mine = started;
        Runtime.getRuntime().addShutdownHook(new Thread(() -> finish(mine, file), "tiprobe-shutdown"));
    }

    /** At exit: the results of a session nobody stopped. */
    private static void finish(Tracing.Session ending, Path file) {
        synchronized (AgentMain.class) {
            if (ending != session || written) return;
            written = true;
        }
        try {
            Results results = ending.stop();
            write(results, file);
            if (results.methods().isEmpty()) {
                System.err.println("tiprobe: the filter '" + results.filter() + "' matched no method");
            }
        } catch (Throwable t) {
            System.err.println("tiprobe: could not write " + file + ": " + message(t));
        }
    }

    private static String message(Throwable t) {
        return t.getMessage() != null && !(t instanceof LinkageError) ? t.getMessage() : t.toString();
    }

    /** Writes the JSON summary, readable by the owner only where the file system allows. */
    static void write(Results results, Path file) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.deleteIfExists(tmp);
        createPrivate(tmp);
        try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8, StandardOpenOption.TRUNCATE_EXISTING)) {
            ResultsJson.write(results, w);
        }
        Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    private static void createPrivate(Path file) throws IOException {
        try {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (UnsupportedOperationException e) {
            Files.createFile(file);
        }
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
            createPrivate(probe);
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
        if (args == null || args.isBlank()) throw new IllegalArgumentException("no options: use trace=<filter>[,mode=count|time|trace][,file=<path>]");
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
                default -> throw new IllegalArgumentException("unknown option '" + key + "'");
            }
        }
        if (filter == null) throw new IllegalArgumentException("missing trace=<filter>");
        MethodFilter parsed = MethodFilter.parse(filter);
        Tracing.TraceLimits limits = new Tracing.TraceLimits(rate, sample, maxCalls, maxString, maxElements, toString);
        return new AgentOptions(new Tracing.Options(parsed, mode, limits), Path.of(expand(file, pid)));
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
