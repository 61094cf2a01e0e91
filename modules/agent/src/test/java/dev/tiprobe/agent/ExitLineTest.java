package dev.tiprobe.agent;

import dev.tiprobe.recording.Reply;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** What a session started with the JVM says at exit about where its output went. */
class ExitLineTest {
    @Test
    void aLoopWhosePeriodsHadNoSamplesSaysNoProfileWasWritten() {
        assertEquals(AgentSession.NO_PROFILE,
                AgentMain.exitLine(Reply.ok(Reply.STOPPED, "stopped: 0 samples, a recording every 1 s; " + AgentSession.NO_PROFILE)
                        .with(Reply.NO_PROFILE, "yes")));
        assertNull(AgentMain.exitLine(Reply.ok(Reply.STOPPED, "stopped: 12 samples")), "nothing named, nothing said");
        assertNull(AgentMain.exitLine(Reply.ok(Reply.STOPPED, "stopped: " + AgentSession.NO_PROFILE)), "the fact says it, not the text");
    }

    @Test
    void aLoopsProfilesAndARecordingAreNamed() {
        Path profile = Path.of("/tmp/p/cpu-20261127-120000.pb.gz");
        assertEquals("profiles in /tmp/p (the last: cpu-20261127-120000.pb.gz)",
                AgentMain.exitLine(Reply.ok(Reply.STOPPED, "stopped").with(Reply.RECORDING, profile).with(Reply.OUTPUT, profile)));
        Path recording = Path.of("/tmp/out.tpr");
        assertEquals("recording in /tmp/out.tpr (tiprobe report /tmp/out.tpr -f /tmp/out.json makes out.json)",
                AgentMain.exitLine(Reply.ok(Reply.STOPPED, "stopped").with(Reply.RECORDING, recording).with(Reply.OUTPUT, Path.of("/tmp/out.json"))));
    }
}
