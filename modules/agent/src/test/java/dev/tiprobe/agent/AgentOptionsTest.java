package dev.tiprobe.agent;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AgentOptionsTest {
    @Test
    void optionsParseWithDefaultsAndExpandThePid() {
        AgentMain.AgentOptions o = AgentMain.parse("trace=com.foo.**;!com.foo.Bar,mode=trace,rate=0,sample=10,tostring", 4242);
        assertEquals(Tracing.Mode.TRACE, o.tracing().mode());
        assertEquals("com.foo.**;!com.foo.Bar", o.tracing().filter().toString());
        assertEquals(0, o.tracing().limits().perSecond());
        assertEquals(10, o.tracing().limits().everyNth());
        assertTrue(o.tracing().limits().callToString());
        assertEquals(Path.of("tiprobe-4242.json"), o.file());
        assertEquals(Path.of("tiprobe-4242.tpr"), o.recording(), "tracing records too");
        assertEquals(Tracing.Mode.COUNT, AgentMain.parse("trace=a.*", 1).tracing().mode());
        assertEquals(0.05, AgentMain.parse("trace=a.*", 1).tracing().overheadBudget(), "a 5 % budget unless asked");
        assertEquals(0.025, AgentMain.parse("trace=a.*,overhead=2.5", 1).tracing().overheadBudget());
        assertEquals(0, AgentMain.parse("trace=a.*,overhead=0", 1).tracing().overheadBudget(), "0: no limit");
        AgentMain.AgentOptions sampling = AgentMain.parse("interval=20ms,samplemode=cpu,file=/tmp/x-%p.json", 7);
        assertEquals(null, sampling.tracing(), "sampling alone");
        assertEquals(java.time.Duration.ofMillis(20), sampling.sampling().interval());
        assertEquals(Sampler.Mode.CPU, sampling.sampling().mode());
        assertEquals(null, sampling.sampling().threads(), "every thread");
        assertEquals("worker-*;main", AgentMain.parse("interval=10ms,threads=worker-*;main", 1).sampling().threads());
        assertEquals(Path.of("/tmp/x-7.tpr"), sampling.recording(), "the recording sits beside the results");
    }

    @Test
    void badOptionsSayWhatIsWrong() {
        assertEquals("missing trace=<filter> (or interval=<duration> to sample)", message("mode=count"));
        assertEquals("interval must be a positive duration such as 10ms, not '0ms'", message("interval=0ms"));
        assertEquals("samplemode must be wall or cpu, not 'gpu'", message("interval=10ms,samplemode=gpu"));
        assertEquals("mode must be count, time or trace, not 'fast'", message("trace=a.*,mode=fast"));
        assertEquals("unknown option 'colour'", message("trace=a.*,colour=red"));
        assertEquals("rate must be a non-negative number, not '-1'", message("trace=a.*,rate=-1"));
        assertEquals("sample must be at least 1: 0", message("trace=a.*,sample=0"));
        assertEquals("overhead must be a percentage such as 5 (0: no limit), not 'lots'", message("trace=a.*,overhead=lots"));
        assertTrue(message("trace=a.b::").contains("missing method name after '::' at position 5"));
    }

    static String message(String args) {
        return assertThrows(IllegalArgumentException.class, () -> AgentMain.parse(args, 1)).getMessage();
    }

    @Test
    void anOutputThatCannotBeWrittenFailsAtStart(@TempDir Path dir) throws IOException {
        AgentMain.checkWritable(dir.resolve("fine.json"));
        assertTrue(assertThrows(IOException.class, () -> AgentMain.checkWritable(dir.resolve("missing/x.json")))
                .getMessage().contains("no such directory"));
        Files.createDirectory(dir.resolve("d"));
        assertTrue(assertThrows(IOException.class, () -> AgentMain.checkWritable(dir.resolve("d")))
                .getMessage().endsWith("it is a directory"));
    }
}
