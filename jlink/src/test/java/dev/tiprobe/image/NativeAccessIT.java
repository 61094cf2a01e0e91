package dev.tiprobe.image;

import dev.tiprobe.testing.Command;
import dev.tiprobe.testing.Command.Run;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static dev.tiprobe.image.ImageIT.CLASSES;
import static dev.tiprobe.image.ImageIT.JAVA;
import static dev.tiprobe.image.ImageIT.tiprobe;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The JDK blocks restricted FFM calls of code not granted native access under
 * {@code --illegal-native-access=deny}, the announced default, and warns about them without it.
 * tiprobe's agent gives its own module native access: every way in (attach, {@code run},
 * {@code -javaagent}) works under deny, without the user's {@code --enable-native-access}, and no
 * restricted-method warning reaches the program's output; the program's own class path keeps
 * what the user chose.
 */
class NativeAccessIT {
    private static final String DENY = "--illegal-native-access=deny";
    private static final String WARNING = "restricted method";

    @TempDir
    Path dir;

    Targets targets;

    @BeforeEach
    void targets() {
        targets = new Targets(dir);
    }

    @AfterEach
    void stopTargets() {
        targets.close();
    }

    private Process busy(String log, String... flags) throws Exception {
        List<String> command = new ArrayList<>(List.of(JAVA));
        command.addAll(List.of(flags));
        command.addAll(List.of("-cp", CLASSES, "example.known.Known", "--busy"));
        return targets.startReady(command, log);
    }

    @Test
    void attachedToATargetThatDeniesNativeAccessTheProfileIsTaken() throws Exception {
        Process target = busy("deny.out", DENY, "-XX:+EnableDynamicAgentLoading");
        Run collect = tiprobe("-d", "2", Long.toString(target.pid()));
        assertEquals(0, collect.exit(), collect.err());
        assertTrue(collect.out().contains("example.known.Known.spin"), "the hot method, printed: " + collect.out());
        String out = Files.readString(dir.resolve("deny.out"));
        assertFalse(out.contains(WARNING) || out.contains("Illegal native access"), out);
    }

    @Test
    void attachedToATargetWithNoFlagsNoRestrictedMethodWarningIsPrinted() throws Exception {
        Process target = busy("plain.out");
        Run collect = tiprobe("-d", "2", "--trace", "example.known.Known::spin", "-f", dir.resolve("plain.json").toString(),
                Long.toString(target.pid()));
        assertEquals(0, collect.exit(), collect.err());
        assertTrue(collect.err().contains("start it with -XX:+EnableDynamicAgentLoading to silence it"), collect.err());
        String out = Files.readString(dir.resolve("plain.out"));
        assertTrue(out.contains("A Java agent has been loaded dynamically"), "the JDK's own warning of the attach stays: " + out);
        assertFalse(out.contains(WARNING), "no restricted-method warning: " + out);
    }

    @Test
    void runAndJavaagentWorkUnderDenyAndLeaveTheProgramsOwnAccessDenied() throws Exception {
        Path json = dir.resolve("run.json");
        Run run = tiprobe("run", "--trace", "example.known.Known::work", "-f", json.toString(), "--",
                JAVA, DENY, "-cp", CLASSES, "example.known.Known", "--once");
        assertEquals(0, run.exit(), run.err());
        assertFalse(run.out().contains(WARNING) || run.err().contains(WARNING), run.out() + run.err());
        assertEquals(50_000, ImageIT.calls(json, "work"));

        Path agent = ImageIT.TIPROBE.getParent().getParent().resolve("lib").resolve("tiprobe-agent.jar");
        Path tpr = dir.resolve("agent.tpr");
        Run javaagent = Command.run(List.of(JAVA, DENY, "-javaagent:" + agent + "=trace=example.known.Known::work,quiet,file=" + tpr,
                "-cp", CLASSES, "example.known.NativeCaller"));
        assertEquals(0, javaagent.exit(), javaagent.err());
        assertTrue(Files.size(tpr) > 0, "the recording");
        assertTrue(javaagent.out().contains("the program's own restricted call: IllegalCallerException"),
                "the class path keeps the user's deny: " + javaagent.out() + javaagent.err());
        assertFalse(javaagent.err().contains(WARNING), javaagent.err());
    }
}
