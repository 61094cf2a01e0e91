package dev.tiprobe.agent;

import org.junit.jupiter.api.Test;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The ID map under real class churn, and token determinism across processes: each in JVMs of its own. */
class ChurnTest {
    @Test
    void thirtySecondsOfChurnGiveNoWrongAnswerAndBoundedMemory() throws Exception {
        Run r = run(Churn.class, "30");
        assertEquals(0, r.exit, r.output);
        assertTrue(r.output.contains("ok"), r.output);
        System.out.println(r.output);
    }

    @Test
    void theSameClassesGiveTheSameTokensInTwoProcesses() throws Exception {
        Run first = run(TokenDump.class);
        Run second = run(TokenDump.class);
        assertEquals(0, first.exit, first.output);
        assertEquals(0, second.exit, second.output);
        assertTrue(first.output.lines().count() > 100, first.output);
        assertTrue(first.output.contains("gen.Deterministic loader=dev.tiprobe.agent.Generated$Loader[tiprobe-agent-test]#1"),
                first.output.lines().filter(l -> l.startsWith("gen.")).findFirst().orElse(first.output));
        assertEquals(first.output, second.output);
    }

    record Run(int exit, String output) {}

    static Run run(Class<?> main, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-cp", classPath(), main.getName()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError("timed out: " + command);
        }
        return new Run(p.exitValue(), out);
    }

    static String classPath() {
        List<String> entries = new ArrayList<>();
        for (String property : List.of("jdk.module.path", "java.class.path")) {
            for (String e : System.getProperty(property, "").split(File.pathSeparator)) {
                if (!e.isBlank() && !entries.contains(e)) entries.add(e);
            }
        }
        entries.add(Path.of("target", "test-classes").toAbsolutePath().toString());
        return String.join(File.pathSeparator, entries);
    }
}
