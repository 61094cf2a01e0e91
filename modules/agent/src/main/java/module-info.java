/**
 * What runs inside the target JVM. For now: the registry that feeds tiprobe's ID map from JVMTI,
 * learning IDs only the safe way and never loading a class on tiprobe's behalf.
 */
module dev.tiprobe.agent {
    requires transitive dev.tiprobe.jvmti;
    requires transitive dev.tiprobe.ids;
    exports dev.tiprobe.agent;
}
