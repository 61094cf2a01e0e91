package dev.tiprobe.cli;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the command reads of a target from /proc before deciding it need not attach. */
class TargetTest {
    private static final String[] PLAIN_ENV = {"PATH=/usr/bin", "JAVA_TOOL_OPTIONS=-Xss2m"};

    /** Only a JVM that cannot have chosen its own temporary directory is answered idle without an attach. */
    @Test
    void aTemporaryDirectoryOfItsOwnIsSeenOnTheCommandLineInTheEnvironmentOrMaybeInAFile() {
        assertFalse(Target.mayChooseTmpdir(new String[] {"java", "-Xmx64m", "-cp", "app.jar", "app.Main", "x"}, PLAIN_ENV));
        assertTrue(Target.mayChooseTmpdir(new String[] {"java", "-Djava.io.tmpdir=/var/tmp", "app.Main"}, PLAIN_ENV));
        assertTrue(Target.mayChooseTmpdir(new String[] {"java", "@opts.txt", "app.Main"}, PLAIN_ENV), "an argument file may hold it");
        assertTrue(Target.mayChooseTmpdir(new String[] {"java", "-XX:VMOptionsFile=vm.txt", "app.Main"}, PLAIN_ENV));
        assertTrue(Target.mayChooseTmpdir(new String[] {"java", "app.Main"}, new String[] {"JDK_JAVA_OPTIONS=-Djava.io.tmpdir=/x"}));
        assertFalse(Target.mayChooseTmpdir(new String[] {"java", "app.Main"}, new String[] {"MY_NOTE=java.io.tmpdir"}),
                "a variable the launcher does not read");
    }
}
