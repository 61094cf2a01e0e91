package dev.tiprobe.image;

import dev.tiprobe.testing.Command.Run;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static dev.tiprobe.image.ImageIT.CLASSES;
import static dev.tiprobe.image.ImageIT.JAVA;
import static dev.tiprobe.image.ImageIT.tiprobe;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code tiprobe run} as a user first meets it: with nothing named it prints the program's top CPU
 * methods and leaves no file; with {@code --alloc} it takes the program's allocations from its
 * first moment (the agent's engines start before the program's main class runs), so a program
 * that ends within a tenth of a second still has an alloc view naming its allocation sites.
 */
class FirstMomentIT {
    @TempDir
    Path dir;

    @Test
    void runWithNothingNamedPrintsTheTopCpuMethodsAndLeavesNoFile() throws Exception {
        Path work = java.nio.file.Files.createDirectories(dir.resolve("work"));
        Process p = new ProcessBuilder(ImageIT.TIPROBE.toString(), "run", "--", JAVA, "-cp", CLASSES, "example.known.EnterLoop", "2")
                .directory(work.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.contains("Top methods on top of the stack (self)\n      cpu ms       %  method\n"), "a CPU profile: " + out);
        String top = out.substring(out.indexOf("Top methods on top of the stack (self)")).lines().skip(2).limit(3)
                .collect(java.util.stream.Collectors.joining("\n"));
        assertTrue(top.contains("example.known.EnterLoop."), "the loop among the top methods: " + top);
        assertEquals(List.of(), ImageIT.listing(work, null), "nothing left in the current directory");
    }

    @Test
    void aProgramThatAllocatesForAMomentHasItsAllocationSitesNamed() throws Exception {
        Path recording = dir.resolve("brief.tpr");
        Run run = tiprobe("run", "--alloc", "1k", "-f", recording.toString(), "--", JAVA, "-cp", CLASSES, "example.known.BriefAllocator");
        assertEquals(0, run.exit(), run.err());
        assertTrue(run.out().contains("made 100200 objects"), run.out());
        Run report = tiprobe("report", "--event", "alloc", recording.toString());
        assertEquals(0, report.exit(), report.err());
        String methods = report.out().substring(report.out().indexOf("Top allocating methods (total)"));
        assertTrue(methods.contains("example.known.BriefAllocator.makeNames("), "the names' site: " + report.out());
        assertTrue(methods.contains("example.known.BriefAllocator.makeGrids("), "the grids' site: " + report.out());
        assertTrue(methods.contains("example.known.BriefAllocator.main("), report.out());
    }
}
