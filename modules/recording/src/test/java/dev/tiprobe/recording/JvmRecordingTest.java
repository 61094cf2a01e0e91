package dev.tiprobe.recording;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JvmRecordingTest {
    /**
     * {@code tiprobe run} starts the JVM recording the event the agent then reads: on Linux JFR's
     * CPU-time sampler, whose period setting is its throttle; elsewhere the execution sampler,
     * every interval.
     */
    @Test
    void runStartsTheJvmRecordingTheEventTheAgentReads() {
        boolean linux = System.getProperty("os.name").startsWith("Linux");
        assertEquals(linux ? JvmRecording.CPU_TIME_SAMPLE : JvmRecording.EXECUTION_SAMPLE, JvmRecording.sampleEvent());
        String event = JvmRecording.sampleEvent();
        String recording = recordingOption(List.of("-Xmx1g"));
        assertTrue(recording.contains("+" + event + "#enabled=true,+" + event + "#" + (linux ? "throttle" : "period") + "=10000000ns"), recording);
        assertEquals(linux, recording.contains("+" + JvmRecording.CPU_TIME_SAMPLES_LOST + "#enabled=true"),
                "the CPU-time sampler's lost samples are counted: " + recording);
        // A native agent may hold SIGPROF, which the CPU-time sampler needs; the debugger's does not.
        for (String agent : List.of("-agentpath:/opt/ap/libasyncProfiler.so=start,event=cpu", "-agentlib:asyncProfiler=start")) {
            String besideAgent = recordingOption(List.of(agent));
            assertTrue(besideAgent.contains("+jdk.ExecutionSample#enabled=true,+jdk.ExecutionSample#period=10000000ns"), besideAgent);
            assertFalse(besideAgent.contains(JvmRecording.CPU_TIME_SAMPLES_LOST), besideAgent);
        }
        assertEquals(event, JvmRecording.sampleEvent(List.of("-agentlib:jdwp=transport=dt_socket,server=y,suspend=n")));
    }

    /** Stacks as deep as asked, up to JFR's most; a runtime without JFR gets only the debug information flags. */
    @Test
    void theFlagsAskForTheDepthAndLeaveJfrOutWhereTheRuntimeHasNone() {
        assertTrue(JvmRecording.flags(Duration.ofMillis(10), 64, true, List.of()).contains("-XX:FlightRecorderOptions:stackdepth=64"));
        assertTrue(JvmRecording.flags(Duration.ofMillis(10), 4095, true, List.of()).contains("-XX:FlightRecorderOptions:stackdepth=2048"));
        assertEquals(List.of("-XX:+UnlockDiagnosticVMOptions", "-XX:+DebugNonSafepoints"),
                JvmRecording.flags(Duration.ofMillis(10), 64, false, List.of()));
    }

    private static String recordingOption(List<String> jvmArgs) {
        return JvmRecording.flags(Duration.ofMillis(10), 2048, true, jvmArgs).stream()
                .filter(f -> f.startsWith(JvmRecording.OPTION)).findFirst().orElseThrow();
    }
}
