package dev.tiprobe.recording;

/**
 * One call site of a traced call's body, where the session timed them (a watch's call tree): the
 * method the site names (its static type's, so a virtual call may have run another class's), how
 * often the site ran during the call, and the time spent in it. One per call site: a method called
 * from two sites appears twice.
 */
public record Callee(String method, long calls, long nanos) {}
