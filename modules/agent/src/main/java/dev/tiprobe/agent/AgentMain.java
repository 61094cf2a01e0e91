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

    /** {@code -javaagent}: classes are instrumented from the first one the application loads. */
    public static void premain(String args, Instrumentation inst) {
        try {
            AgentOptions options = parse(args, ProcessHandle.current().pid());
            checkWritable(options.file());
            Tracing.Session session = Tracing.startEarly(options.tracing(), inst, Jvmti.whenReady());
            finishAtExit(session, options.file());
        } catch (Throwable t) {
            System.err.println("tiprobe: " + message(t) + " (the application runs untraced)");
        }
    }

    /** Dynamic attach. */
    public static void agentmain(String args) {
        try {
            AgentOptions options = parse(args, ProcessHandle.current().pid());
            checkWritable(options.file());
            finishAtExit(Tracing.start(options.tracing()), options.file());
        } catch (Throwable t) {
            System.err.println("tiprobe: " + message(t) + " (the application runs untraced)");
        }
    }

    private static void finishAtExit(Tracing.Session session, Path file) {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> finish(session, file), "tiprobe-shutdown"));
    }

    private static void finish(Tracing.Session session, Path file) {
        try {
            Results results = session.stop();
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
