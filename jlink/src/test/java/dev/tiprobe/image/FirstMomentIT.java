package dev.tiprobe.image;

import dev.tiprobe.testing.Command.Run;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static dev.tiprobe.image.ImageIT.CLASSES;
import static dev.tiprobe.image.ImageIT.JAVA;
import static dev.tiprobe.image.ImageIT.tiprobe;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code tiprobe run} takes a program's allocations from its first moment: the agent's engines
 * start before the program's main class runs, so a program that ends within a tenth of a second
 * still has an alloc view naming its allocation sites.
 */
class FirstMomentIT {
    @TempDir
    Path dir;

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
