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
        assertEquals(Tracing.Mode.COUNT, AgentMain.parse("trace=a.*", 1).tracing().mode());
    }

    @Test
    void badOptionsSayWhatIsWrong() {
        assertEquals("missing trace=<filter>", message("mode=count"));
        assertEquals("mode must be count, time or trace, not 'fast'", message("trace=a.*,mode=fast"));
        assertEquals("unknown option 'colour'", message("trace=a.*,colour=red"));
        assertEquals("rate must be a non-negative number, not '-1'", message("trace=a.*,rate=-1"));
        assertEquals("sample must be at least 1: 0", message("trace=a.*,sample=0"));
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
