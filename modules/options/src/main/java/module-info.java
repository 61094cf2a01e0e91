/**
 * A session's settings as they travel to the agent: one option string ({@code trace=...,mode=...,
 * interval=...,file=...}) that the command formats and the agent parses, with the file naming
 * rules ({@code %p}, {@code %t}, the recording beside the results) written once for both.
 */
module dev.tiprobe.options {
    requires transitive dev.tiprobe.filter;
    requires dev.tiprobe.recording;  // JFR's deepest stacks, for the help text
    exports dev.tiprobe.options;
}
