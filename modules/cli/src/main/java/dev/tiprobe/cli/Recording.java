package dev.tiprobe.cli;

import dev.tiprobe.report.TracedText;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A results file the agent wrote, read and checked: anything malformed, truncated or not written
 * by tiprobe is one clear error, never a stack trace.
 */
record Recording(String mode, String filter, long droppedCalls, long probeFailures, List<TracedText.Method> methods,
                 List<Call> calls, List<String> skipped, List<String> classFailures, List<String> removedForOverhead) {

    /** A traced call; {@code result} is the returned value, or the thrown exception when {@code threw}. */
    record Call(String method, String thread, long depth, long durationNanos, List<String> argNames,
                List<Object> argValues, boolean threw, Object result) {}

    static final long MAX_BYTES = 1L << 30;

    static Recording read(Path file) throws CliException {
        String text;
        try {
            if (Files.size(file) > MAX_BYTES) throw new CliException(file + " is larger than 1 GiB");
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new CliException(file + " is not a tiprobe results file (not UTF-8 text); recordings end in .tpr", e);
        } catch (IOException e) {
            throw new CliException("cannot read " + file + ": " + e.getMessage(), e);
        }
        try {
            if (!(Json.parse(text) instanceof Map<?, ?> root) || !"tiprobe".equals(root.get("tool"))) {
                throw new CliException(file + " is not a tiprobe results file");
            }
            List<TracedText.Method> methods = new ArrayList<>();
            for (Map<?, ?> m : objects(root, "methods")) {
                methods.add(new TracedText.Method(string(m, "name"), number(m, "calls"), m.containsKey("totalNanos"),
                        optional(m, "totalNanos"), optional(m, "minNanos"), optional(m, "maxNanos")));
            }
            List<Call> calls = new ArrayList<>();
            for (Map<?, ?> c : objects(root, "calls")) {
                List<String> names = new ArrayList<>();
                List<Object> values = new ArrayList<>();
                for (Map<?, ?> a : objects(c, "args")) {
                    names.add(string(a, "name"));
                    values.add(a.get("value"));
                }
                boolean threw = c.containsKey("thrown");
                calls.add(new Call(string(c, "method"), string(c, "thread"), number(c, "depth"), number(c, "durationNanos"),
                        names, values, threw, threw ? c.get("thrown") : c.get("returned")));
            }
            List<String> skipped = new ArrayList<>();
            for (Map<?, ?> s : objects(root, "skipped")) {
                skipped.add(string(s, "class") + "." + string(s, "method") + string(s, "descriptor") + ": " + string(s, "reason"));
            }
            List<String> failures = new ArrayList<>();
            for (Object f : list(root, "classFailures")) failures.add(String.valueOf(f));
            List<String> removed = new ArrayList<>();
            if (root.containsKey("removedForOverhead")) {  // results of earlier versions have none
                for (Map<?, ?> r : objects(root, "removedForOverhead")) {
                    removed.add(String.format("%s (%.1fM calls/s)", string(r, "method"), number(r, "callsPerSecond") / 1e6));
                }
            }
            return new Recording(string(root, "mode"), string(root, "filter"), number(root, "droppedCalls"),
                    number(root, "probeFailures"), methods, calls, skipped, failures, removed);
        } catch (Json.MalformedJsonException e) {
            throw new CliException(file + " is damaged: " + e.getMessage(), e);
        } catch (IllegalArgumentException e) {
            throw new CliException(file + " is not a complete tiprobe results file: " + e.getMessage(), e);
        }
    }

    private static List<?> list(Map<?, ?> m, String key) {
        if (!(m.get(key) instanceof List<?> l)) throw new IllegalArgumentException("'" + key + "' is missing or not a list");
        return l;
    }

    private static List<Map<?, ?>> objects(Map<?, ?> m, String key) {
        List<Map<?, ?>> out = new ArrayList<>();
        for (Object o : list(m, key)) {
            if (!(o instanceof Map<?, ?> item)) throw new IllegalArgumentException("an entry of '" + key + "' is not an object");
            out.add(item);
        }
        return out;
    }

    private static String string(Map<?, ?> m, String key) {
        Object v = m.get(key);
        if (v != null && !(v instanceof String)) throw new IllegalArgumentException("'" + key + "' is not a string");
        return (String) v;
    }

    private static long number(Map<?, ?> m, String key) {
        if (!(m.get(key) instanceof Long n)) throw new IllegalArgumentException("'" + key + "' is missing or not a number");
        return n;
    }

    private static long optional(Map<?, ?> m, String key) {
        return m.containsKey(key) ? number(m, key) : -1;
    }
}
