package dev.tiprobe.recording;

import java.time.Duration;
import java.util.List;

/**
 * The JFR recording that {@code tiprobe run} has the JVM start, so that sampling begins at the
 * JVM's first moment, and that the agent then reads instead of starting one of its own: its
 * name, the events it samples with, and the flags that start it. The command writes the flags,
 * the agent finds the recording by its name; both take the event from here.
 */
public final class JvmRecording {
    private JvmRecording() {}

    /** The recording's name. */
    public static final String NAME = "tiprobe";
    /** How the JVM's command line begins the option that starts it. */
    public static final String OPTION = "-XX:StartFlightRecording:name=" + NAME + ",";
    /** The deepest stacks JFR keeps ({@code stackdepth}'s maximum). */
    public static final int MAX_STACK_DEPTH = 2048;

    /** JFR's sampler of threads running Java code, at a wall-clock period, taken by a JFR thread. */
    public static final String EXECUTION_SAMPLE = "jdk.ExecutionSample";
    /**
     * JFR's CPU-time sampler (JDK 25, Linux): each thread is sampled by its own CPU clock, in
     * Java or native code, by a signal it takes itself; one in Java code walks its own stack,
     * as async-profiler's {@code itimer} works in the sampled thread (JFR's CPU sampler thread
     * walks only threads found in native code).
     */
    public static final String CPU_TIME_SAMPLE = "jdk.CPUTimeSample";
    /**
     * How many CPU-time samples of a thread JFR kept no stack of: the thread was in the JVM's own
     * code (taking a contended lock, loading a class), or its queue of samples was busy or full.
     */
    public static final String CPU_TIME_SAMPLES_LOST = "jdk.CPUTimeSamplesLost";

    /**
     * The JFR event sampling reads for running threads, in either mode: on Linux {@link
     * #CPU_TIME_SAMPLE}, elsewhere {@link #EXECUTION_SAMPLE} (JDK 25 has the CPU-time sampler on
     * Linux only). Wall mode takes the threads not running Java code itself.
     */
    public static String sampleEvent() {
        return System.getProperty("os.name", "").startsWith("Linux") ? CPU_TIME_SAMPLE : EXECUTION_SAMPLE;
    }

    /**
     * As {@link #sampleEvent()}, for a JVM started with {@code jvmArgs}: one with a native agent
     * ({@code -agentpath:}, or {@code -agentlib:} but the debugger's) gets {@link
     * #EXECUTION_SAMPLE}, as such an agent may hold SIGPROF (async-profiler's {@code cpu} and
     * {@code itimer} do), which the CPU-time sampler needs: JFR then records none and prints
     * "Conflicting SIGPROF handler found" into the program's output.
     */
    public static String sampleEvent(List<String> jvmArgs) {
        boolean nativeAgent = jvmArgs.stream().anyMatch(a -> a.startsWith("-agentpath:")
                || a.startsWith("-agentlib:") && !a.startsWith("-agentlib:jdwp"));
        return nativeAgent ? EXECUTION_SAMPLE : sampleEvent();
    }

    /** The setting that makes {@code event} sample every interval: JFR names it differently per event. */
    public static String periodSetting(String event) {
        return event.equals(CPU_TIME_SAMPLE) ? "throttle" : "period";
    }

    /**
     * The flags that make a JVM sample from its first moment, every {@code interval} up to
     * {@code depth} frames, with {@code jvmArgs} its other options: JFR's samples ({@link
     * #sampleEvent(List)}) in the recording {@link #NAME}, started before {@code main} (JFR takes
     * about 0.4 s to start, which the program would otherwise spend unsampled), JFR's startup
     * lines left out of the program's output, and with the CPU-time sampler the samples it lost
     * counted; stacks as deep as asked (JFR keeps 64 frames otherwise, settable only before its
     * first recording); and DebugNonSafepoints, so code
     * compiled before the agent reaches JVMTI names its inlined methods too (a diagnostic flag
     * that only adds debug information to compiled code). The recording keeps a minute of
     * samples on disk at most. For a runtime without the {@code jdk.jfr} module ({@code jfr}
     * false), which refuses to start with JFR's flags, only the last.
     */
    public static List<String> flags(Duration interval, int depth, boolean jfr, List<String> jvmArgs) {
        List<String> debugInfo = List.of("-XX:+UnlockDiagnosticVMOptions", "-XX:+DebugNonSafepoints");
        if (!jfr) return debugInfo;
        String event = sampleEvent(jvmArgs);
        String lost = event.equals(CPU_TIME_SAMPLE) ? ",+" + CPU_TIME_SAMPLES_LOST + "#enabled=true" : "";
        return List.of(debugInfo.get(0), debugInfo.get(1),
                "-XX:FlightRecorderOptions:stackdepth=" + Math.min(depth, MAX_STACK_DEPTH),
                OPTION + "settings=none,maxage=1m,+" + event + "#enabled=true,"
                        + "+" + event + "#" + periodSetting(event) + "=" + interval.toNanos() + "ns" + lost,
                "-Xlog:jfr+startup=off");
    }
}
