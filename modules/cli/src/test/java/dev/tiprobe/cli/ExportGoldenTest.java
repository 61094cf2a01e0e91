package dev.tiprobe.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every format {@code report} writes, from one fixed recording, byte for byte as committed: a
 * change to how exports are made must leave what users get as it was, or change the files here
 * on purpose. The recording, {@code golden/golden.tpr}, is a real one: {@code tiprobe run
 * --sample 10ms --sample-mode wall --alloc 256k --live --lock 1ms --trace
 * 'example.known.AllocAndLocks::retain' --mode trace --args} over {@code AllocAndLocks 1}, so it
 * holds wall samples, allocations, live objects, monitor waits and traced calls with arguments.
 *
 * <p>To write the expected files anew after a change meant to alter them: {@code ./mvnw25 -pl
 * modules/cli -am test -Dtest=ExportGoldenTest -Dsurefire.failIfNoSpecifiedTests=false
 * -Dtiprobe.golden.write=$PWD/modules/cli/src/test/resources/golden}, then read the diff.
 */
class ExportGoldenTest {
    private static final String WRITE = System.getProperty("tiprobe.golden.write");

    /** Each expected file's name, and the {@code report} arguments (after the recording) that make it. */
    private static final Map<String, List<String>> CASES = new LinkedHashMap<>();

    static {
        for (String extension : List.of("json", "txt", "html", "collapsed", "pb.gz", "jfr")) CASES.put("golden." + extension, List.of());
        CASES.put("alloc.collapsed", List.of("--event", "alloc"));
        CASES.put("live.html", List.of("--event", "live", "--names", "full"));
        CASES.put("lock.txt", List.of("--event", "lock"));
        CASES.put("lock.pb.gz", List.of("--event", "lock"));
        CASES.put("dot.collapsed", List.of("--names", "dot"));
        CASES.put("lines.collapsed", List.of("--lines"));
        CASES.put("window.collapsed", List.of("--from", "1.8", "--to", "2.2"));
        CASES.put("excluded.txt", List.of("--exclude", "java.**"));
        CASES.put("diff.html", List.of("--diff", "golden.tpr"));
        CASES.put("diff.collapsed", List.of("--diff", "golden.tpr", "--event", "alloc"));
    }

    @TempDir
    Path dir;

    @Test
    void everyFormatIsWrittenAsBefore() throws IOException {
        Path recording = dir.resolve("golden.tpr");
        try (InputStream in = resource("golden.tpr")) {
            Files.copy(in, recording);
        }
        List<String> differing = new ArrayList<>();
        for (Map.Entry<String, List<String>> c : CASES.entrySet()) {
            Path out = dir.resolve(c.getKey());
            List<String> args = new ArrayList<>(List.of("report", recording.toString()));
            args.addAll(c.getValue().stream().map(a -> a.equals("golden.tpr") ? recording.toString() : a).toList());
            args.addAll(List.of("-f", out.toString()));
            HelpTest.Result r = HelpTest.tiprobe(args.toArray(String[]::new));
            assertEquals(0, r.exit(), c.getKey() + ": " + r.err());
            if (!matches(c.getKey(), Files.readAllBytes(out))) differing.add(c.getKey());
        }
        StringWriter printed = new StringWriter();
        StringWriter err = new StringWriter();
        assertEquals(0, Main.run(new PrintWriter(printed, true), new PrintWriter(err, true), "report", recording.toString(), "-f", "-"), err.toString());
        if (!matches("printed.txt", printed.toString().getBytes(StandardCharsets.UTF_8))) differing.add("printed.txt");
        assertTrue(differing.isEmpty(), "exports that differ from src/test/resources/golden (each written to " + dir + "): " + differing);
    }

    /**
     * A file that holds one view, made from a recording of several, says which views it leaves
     * out and names the command that makes the first; that command writes the view as asked. A
     * view asked for by name is what the user wanted: nothing is said.
     */
    @Test
    void aFileOfOneViewNamesTheViewsItLeavesOut() throws IOException {
        Path recording = dir.resolve("golden.tpr");
        try (InputStream in = resource("golden.tpr")) {
            Files.copy(in, recording);
        }
        HelpTest.Result natural = HelpTest.tiprobe("report", recording.toString(), "-f", dir.resolve("profile.collapsed").toString());
        assertEquals(0, natural.exit(), natural.err());
        String command = "report " + recording + " --event alloc -f " + dir.resolve("profile-alloc.collapsed");
        assertTrue(natural.err().contains("tiprobe report: profile.collapsed holds the wall view; the recording also holds alloc, live,"
                + " lock: tiprobe " + command + "\n"), natural.err());

        HelpTest.Result named = HelpTest.tiprobe(command.split(" "));
        assertEquals(0, named.exit(), named.err());
        assertFalse(named.err().contains("holds the"), named.err());
        try (InputStream expected = resource("alloc.collapsed")) {
            assertArrayEquals(expected.readAllBytes(), Files.readAllBytes(dir.resolve("profile-alloc.collapsed")));
        }
    }

    /** Whether {@code actual} is the committed {@code name}; with {@code tiprobe.golden.write}, writes it there instead. */
    private boolean matches(String name, byte[] actual) throws IOException {
        if (WRITE != null) {
            Files.write(Path.of(WRITE, name), actual);
            return true;
        }
        Files.write(dir.resolve(name), actual);
        try (InputStream expected = resource(name)) {
            assertTrue(expected != null, "no golden/" + name + ": write it with -Dtiprobe.golden.write");
            return java.util.Arrays.equals(expected.readAllBytes(), actual);
        }
    }

    private static InputStream resource(String name) {
        return ExportGoldenTest.class.getResourceAsStream("/golden/" + name);
    }
}
