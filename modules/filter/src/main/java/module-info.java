/**
 * Which methods to trace: the filter syntax ({@code com.foo.**;!com.foo.internal.**}), parsed with
 * errors that name the position, and matched against class and method names. The command checks a
 * filter with it before attaching; the agent carries it to match classes as they load.
 */
module dev.tiprobe.filter {
    exports dev.tiprobe.filter;
}
