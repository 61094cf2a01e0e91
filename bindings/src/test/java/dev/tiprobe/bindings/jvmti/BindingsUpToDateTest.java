package dev.tiprobe.bindings.jvmti;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The committed bindings are exactly what jextract makes from includes.txt. Needs {@code jextract}
 * on PATH; without it the test reports itself skipped rather than passing.
 */
class BindingsUpToDateTest {
    private static final Path PACKAGE = Path.of("dev", "tiprobe", "bindings", "jvmti");

    @Test
    void regeneratingGivesTheCommittedSources(@TempDir Path out) throws Exception {
        Assumptions.assumeTrue(onPath("jextract"),
                "jextract is not on PATH, so the committed bindings were not regenerated and compared");
        Process p = new ProcessBuilder("bash", Path.of("jextract", "regenerate.sh").toString(), out.toString())
                .redirectErrorStream(true).start();
        String log = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(5, TimeUnit.MINUTES), "regenerate.sh timed out");
        assertEquals(0, p.exitValue(), log);

        Path committed = Path.of("src", "main", "java").resolve(PACKAGE);
        Path fresh = out.resolve(PACKAGE);
        assertEquals(names(committed), names(fresh), "the same files");
        List<String> differing = new ArrayList<>();
        for (String name : names(committed)) {
            if (Files.mismatch(committed.resolve(name), fresh.resolve(name)) != -1) differing.add(name);
        }
        assertTrue(differing.isEmpty(), "regenerated files differ from the committed ones: " + differing);
    }

    private static List<String> names(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(f -> f.getFileName().toString()).sorted().toList();
        }
    }

    private static boolean onPath(String command) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, command))) return true;
        }
        return false;
    }
}
