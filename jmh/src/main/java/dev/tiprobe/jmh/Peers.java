package dev.tiprobe.jmh;

/**
 * How a benchmark's fork loads each profiler it is measured against: the start of the JVM
 * argument, its options to be appended. Paths are relative to the repository root, where the
 * benchmarks are run from; one place names them for every benchmark.
 */
final class Peers {
    private Peers() {}

    /** tiprobe's agent calls JVMTI through FFM. */
    static final String NATIVE = "--enable-native-access=ALL-UNNAMED";
    /** tiprobe's agent as the build leaves it; its options follow. */
    static final String TIPROBE_AGENT = "-javaagent:modules/agent/target/tiprobe-agent.jar=";
    /** async-profiler as the jmh build unpacks it; its options follow. */
    static final String ASYNC_PROFILER_AGENT = "-agentpath:jmh/target/async-profiler/linux-x64/libasyncProfiler.so=";
}
