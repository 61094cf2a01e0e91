package dev.tiprobe.cli;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the command reads of a target from /proc before deciding it need not attach. */
class TargetTest {
    private static final String[] PLAIN_ENV = {"PATH=/usr/bin", "JAVA_TOOL_OPTIONS=-Xss2m"};

    /** Only a JVM that cannot have chosen its own temporary directory is answered idle without an attach. */
    @Test
    void aTemporaryDirectoryOfItsOwnIsSeenOnTheCommandLineInTheEnvironmentOrMaybeInAFile() {
        assertFalse(Target.mayChooseTmpdir(launch(new String[] {"java", "-Xmx64m", "-cp", "app.jar", "app.Main", "x"}, PLAIN_ENV)));
        assertTrue(Target.mayChooseTmpdir(launch(new String[] {"java", "-Djava.io.tmpdir=/var/tmp", "app.Main"}, PLAIN_ENV)));
        assertTrue(Target.mayChooseTmpdir(launch(new String[] {"java", "@opts.txt", "app.Main"}, PLAIN_ENV)), "an argument file may hold it");
        assertTrue(Target.mayChooseTmpdir(launch(new String[] {"java", "-XX:VMOptionsFile=vm.txt", "app.Main"}, PLAIN_ENV)));
        assertTrue(Target.mayChooseTmpdir(launch(new String[] {"java", "app.Main"}, new String[] {"JDK_JAVA_OPTIONS=-Djava.io.tmpdir=/x"})));
        assertFalse(Target.mayChooseTmpdir(launch(new String[] {"java", "app.Main"}, new String[] {"MY_NOTE=java.io.tmpdir"})),
                "a variable the launcher does not read");
    }

    private static Target.Launch launch(String[] args, String[] environment) {
        return new Target.Launch(args, environment);
    }

    /** The flag that silences the JDK's warning is read from how the JVM was started, where no file of options could hide it. */
    @Test
    void aFlagIsSeenOnTheCommandLineOrInAVariableUnlessAFileCouldHoldIt() {
        Target.Launch plain = launch(new String[] {"java", "-XX:+EnableDynamicAgentLoading", "app.Main"}, PLAIN_ENV);
        assertTrue(plain.gives("-XX:+EnableDynamicAgentLoading") && !plain.mayHideOptions());
        assertTrue(launch(new String[] {"java", "app.Main"}, new String[] {"JAVA_TOOL_OPTIONS=-Xss2m -XX:+EnableDynamicAgentLoading"})
                .gives("-XX:+EnableDynamicAgentLoading"));
        assertFalse(launch(new String[] {"java", "app.Main"}, new String[] {"NOTE=-XX:+EnableDynamicAgentLoading"})
                .gives("-XX:+EnableDynamicAgentLoading"), "a variable no launcher reads");
        assertTrue(launch(new String[] {"java", "app.Main"}, new String[] {"JDK_JAVA_OPTIONS=@more.txt"}).mayHideOptions());
        assertTrue(launch(new String[] {"java", "-XX:Flags=.hotspotrc", "app.Main"}, PLAIN_ENV).mayHideOptions());
    }

    /**
     * A boolean flag is what the JVM makes of it: the last option to name it decides, the
     * variables read in the JVM's order (JAVA_TOOL_OPTIONS, the command line, then _JAVA_OPTIONS).
     */
    @Test
    void theLastOptionToNameAFlagDecidesIt() {
        String flag = "EnableDynamicAgentLoading";
        assertTrue(launch(new String[] {"java", "-XX:+" + flag, "app.Main"}, PLAIN_ENV).turnsOn(flag));
        assertFalse(launch(new String[] {"java", "app.Main"}, PLAIN_ENV).turnsOn(flag));
        assertFalse(launch(new String[] {"java", "-XX:+" + flag, "-XX:-" + flag, "app.Main"}, PLAIN_ENV).turnsOn(flag));
        assertFalse(launch(new String[] {"java", "app.Main"}, new String[] {"JAVA_TOOL_OPTIONS=-XX:+" + flag + " -XX:-" + flag}).turnsOn(flag),
                "turned off after it was turned on");
        assertFalse(launch(new String[] {"java", "-XX:-" + flag, "app.Main"}, new String[] {"JAVA_TOOL_OPTIONS=-XX:+" + flag}).turnsOn(flag),
                "the command line after JAVA_TOOL_OPTIONS");
        assertTrue(launch(new String[] {"java", "-XX:-" + flag, "app.Main"}, new String[] {"_JAVA_OPTIONS=-XX:+" + flag}).turnsOn(flag),
                "_JAVA_OPTIONS last");
        assertFalse(launch(new String[] {"java", "-XX:+" + flag + "Extra", "app.Main"}, PLAIN_ENV).turnsOn(flag), "another flag");
    }

    /** The version check before the agent's load reads the runtime's release file, as the target's properties would say it. */
    @Test
    void aJvmsJavaVersionAndHomeComeFromTheReleaseFileOfTheRuntimeItMapped() throws IOException {
        long pid = ProcessHandle.current().pid();
        Target.JavaRuntime runtime = Target.JavaRuntime.of(pid, Target.mappedLibjvm(pid));
        assertEquals(Runtime.version().feature(), Target.feature(runtime.version()));
        assertEquals(Path.of(System.getProperty("java.home")).toString(), runtime.home());
    }

    /**
     * A libjvm.so removed under its running JVM (its JDK updated or uninstalled) is still that
     * JVM's: maps names it with "(deleted)" after the path, which is not part of the path.
     */
    @Test
    void aMappedFileRemovedSinceIsStillNamedByItsPath() {
        String prefix = "7f7832ce3000-7f7833d6f000 r-xp 002e3000 fe:00 328747                     ";
        assertEquals(new Target.MappedFile("/opt/jdk/lib/server/libjvm.so", false), Target.MappedFile.of(prefix + "/opt/jdk/lib/server/libjvm.so"));
        assertEquals(new Target.MappedFile("/opt/jdk/lib/server/libjvm.so", true),
                Target.MappedFile.of(prefix + "/opt/jdk/lib/server/libjvm.so (deleted)"));
        assertEquals(new Target.MappedFile("/opt/my jdk/lib/server/libjvm.so", false), Target.MappedFile.of(prefix + "/opt/my jdk/lib/server/libjvm.so"));
        assertNull(Target.MappedFile.of("7ffd1c2a1000-7ffd1c2c2000 rw-p 00000000 00:00 0                          [stack]"));
        assertNull(Target.MappedFile.of("7f7832a00000-7f7832ce3000 rw-p 00000000 00:00 0 "));
    }

    /** A process that maps no JVM has no runtime to read: the attach's checks answer for it. */
    @Test
    void aProcessWithoutAJvmHasNoRuntime() throws IOException, InterruptedException {
        Process sleeper = new ProcessBuilder("sleep", "30").start();
        try {
            assertNull(Target.JavaRuntime.of(sleeper.pid(), Target.mappedLibjvm(sleeper.pid())));
        } finally {
            sleeper.destroy();
            sleeper.waitFor();
        }
    }
}
