package dev.tiprobe.recording;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The agent's answer to a command (start, status, dump, stop, and the progress line {@code collect}
 * reads each second): whether it succeeded, a sentence for the user, and facts by name that the
 * command acts on (the recording's path, the methods instrumented, the counts so far). The command
 * prints the sentence and reads the facts; it never parses the sentence.
 *
 * <p>On the wire one line, versioned: {@code tiprobe-reply/1 TAB ok|error TAB text (TAB key=value)*},
 * tabs, newlines and backslashes in the text and values escaped. A line of another version (an agent
 * of another tiprobe release still loaded in the target) is refused with a sentence that says so.
 */
public record Reply(boolean ok, String text, Map<String, String> facts) {
    /** What a reply says it is: one of the kinds below. */
    public static final String KIND = "kind";
    public static final String STARTED = "started";
    public static final String RUNNING = "running";
    public static final String IDLE = "idle";
    public static final String DUMPED = "dumped";
    public static final String STOPPED = "stopped";
    /** The recording's absolute path (started, running, dumped, stopped). */
    public static final String RECORDING = "recording";
    /** The output the session was started for ({@code -f}), made from the recording by the command. */
    public static final String OUTPUT = "output";
    /**
     * When everything a session was started for began recording (started), in epoch milliseconds:
     * a command's duration counts from there, not from the answer's arrival, which comes after
     * the session's own set-up (its control socket, its keeper).
     */
    public static final String RECORDING_SINCE = "recordingSince";
    /** Where the started session listens for the command (started), where it could open its socket. */
    public static final String CONTROL_SOCKET = "controlSocket";
    /** Why the last session stopped by itself (an idle reply's): its recording removed, the heap full. */
    public static final String WHY = "why";
    /** Methods instrumented so far (tracing). */
    public static final String METHODS = "methods";
    /** Classes tracing left as they were (tracing): their instrumenting failed, or they were running a loop. */
    public static final String CLASSES_LEFT_UNCHANGED = "classesLeftUnchanged";
    /** Counts so far, where the engine runs: traced calls, stack samples, allocation samples, waits. */
    public static final String CALLS = "calls";
    public static final String SAMPLES = "samples";
    public static final String ALLOCATIONS = "allocations";
    public static final String WAITS = "waits";
    /** "yes" when a loop that makes pprof profiles ended with none written: no period had samples (stopped). */
    public static final String NO_PROFILE = "noProfile";
    /** What a condition ({@code where=}) could not read so far, one note a line: a field a class lacks, a parameter a method lacks. */
    public static final String NOTES = "notes";

    static final String MAGIC = "tiprobe-reply/1";

    public Reply {
        facts = Collections.unmodifiableMap(new LinkedHashMap<>(facts));
    }

    /** A success saying {@code text}, of kind {@code kind}. */
    public static Reply ok(String kind, String text) {
        return new Reply(true, text, Map.of(KIND, kind));
    }

    /** A failure saying why, in one sentence. */
    public static Reply error(String why) {
        return new Reply(false, why, Map.of());
    }

    /** This reply with the fact {@code key} (letters only) set to {@code value}'s text; a null value sets nothing. */
    public Reply with(String key, Object value) {
        if (value == null) return this;
        if (!key.chars().allMatch(Character::isLetter)) throw new IllegalArgumentException("not a fact's name: " + key);
        Map<String, String> more = new LinkedHashMap<>(facts);
        more.put(key, value.toString());
        return new Reply(ok, text, more);
    }

    /** This reply with the sentence {@code more} added to its text. */
    public Reply append(String more) {
        return new Reply(ok, text + more, facts);
    }

    /** The fact {@code key}, or null. */
    public String fact(String key) {
        return facts.get(key);
    }

    /** The fact {@code key} as a path, or null. */
    public Path path(String key) {
        String v = facts.get(key);
        return v == null ? null : Path.of(v);
    }

    /** The fact {@code key} as a count, or -1 where the reply has none. */
    public long count(String key) {
        String v = facts.get(key);
        try {
            return v == null ? -1 : Long.parseLong(v);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    public String kind() {
        return facts.getOrDefault(KIND, "");
    }

    /** The one line that goes over the socket or into the reply file (no newline). */
    public String encode() {
        StringBuilder b = new StringBuilder(MAGIC).append('\t').append(ok ? "ok" : "error").append('\t').append(escape(text));
        facts.forEach((k, v) -> b.append('\t').append(k).append('=').append(escape(v)));
        return b.toString();
    }

    /**
     * The reply {@code line} encodes.
     *
     * @throws IllegalArgumentException with a sentence for the user when the line is no reply of this version
     */
    public static Reply decode(String line) {
        String[] fields = line.replaceFirst("[\r\n]+$", "").split("\t", -1);
        if (fields.length < 3 || !fields[0].equals(MAGIC) || !(fields[1].equals("ok") || fields[1].equals("error"))) {
            throw new IllegalArgumentException(line.startsWith("tiprobe-reply/") || line.startsWith("ok") || line.startsWith("error")
                    ? "the agent in the target answers as another release of tiprobe does: stop its session with that release"
                    : "the agent's answer is not tiprobe's: " + (line.length() > 80 ? line.substring(0, 80) + "…" : line));
        }
        Map<String, String> facts = new LinkedHashMap<>();
        for (int i = 3; i < fields.length; i++) {
            int eq = fields[i].indexOf('=');
            if (eq <= 0) throw new IllegalArgumentException("the agent's answer has a malformed fact: " + fields[i]);
            facts.put(fields[i].substring(0, eq), unescape(fields[i].substring(eq + 1)));
        }
        return new Reply(fields[1].equals("ok"), unescape(fields[2]), facts);
    }

    private static String escape(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\\' -> b.append("\\\\");
                case '\t' -> b.append("\\t");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                default -> b.append(c);
            }
        }
        return b.toString();
    }

    private static String unescape(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '\\' || i + 1 == s.length()) {
                b.append(c);
                continue;
            }
            char next = s.charAt(++i);
            b.append(switch (next) {
                case 't' -> '\t';
                case 'n' -> '\n';
                case 'r' -> '\r';
                default -> next;
            });
        }
        return b.toString();
    }
}
