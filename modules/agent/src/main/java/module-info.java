/**
 * What runs inside the target JVM: the registry that feeds tiprobe's ID map from JVMTI (learning
 * IDs only the safe way, never loading a class on tiprobe's behalf), method tracing with
 * injected enter probes, and stack sampling into recordings. Shipped as an agent jar on the class path; this descriptor is for the
 * build and the in-module tests.
 */
module dev.tiprobe.agent {
    requires transitive dev.tiprobe.jvmti;
    requires transitive dev.tiprobe.ids;
    requires dev.tiprobe.probe;
    requires transitive dev.tiprobe.recording;
    requires transitive dev.tiprobe.options;
    requires dev.tiprobe.report;  // the loop's pprof profiles, written by the agent itself
    requires transitive java.instrument;
    requires static java.management;  // the heap watch, where the target's runtime has it
    requires jdk.jfr;  // sampling and lock profiling read JFR's events; where the target lacks JFR they fall back to JVMTI
    exports dev.tiprobe.agent;
    exports dev.tiprobe.agent.sink;
    exports dev.tiprobe.agent.jvm;
    exports dev.tiprobe.agent.registry;
    exports dev.tiprobe.agent.tracing;
    exports dev.tiprobe.agent.sampling;
}
