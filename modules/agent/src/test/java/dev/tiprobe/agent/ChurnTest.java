package dev.tiprobe.agent;

import dev.tiprobe.testing.Command;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The ID map under real class churn, and token determinism across processes: each in JVMs of its own. */
class ChurnTest {
    @Test
    void thirtySecondsOfChurnGiveNoWrongAnswerAndBoundedMemory() throws Exception {
        Command.Run r = run(Churn.class, "30");
        assertEquals(0, r.exit(), r.all());
        assertTrue(r.all().contains("ok"), r.all());
        System.out.println(r.all());
    }

    @Test
    void theSameClassesGiveTheSameTokensInTwoProcesses() throws Exception {
        Command.Run first = run(TokenDump.class);
        Command.Run second = run(TokenDump.class);
        assertEquals(0, first.exit(), first.all());
        assertEquals(0, second.exit(), second.all());
        assertTrue(first.out().lines().count() > 100, first.out());
        assertTrue(first.out().contains("gen.Deterministic loader=dev.tiprobe.testing.GeneratedClasses$Loader[tiprobe-test]#1"),
                first.out().lines().filter(l -> l.startsWith("gen.")).findFirst().orElse(first.out()));
        assertEquals(first.out(), second.out());
    }

    static Command.Run run(Class<?> main, String... args) throws Exception {
        return Command.onTestClassPath(List.of("--enable-native-access=ALL-UNNAMED"), main.getName(), args);
    }
}
