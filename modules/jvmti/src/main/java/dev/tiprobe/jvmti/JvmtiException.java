package dev.tiprobe.jvmti;

import java.io.Serial;

/** A JVMTI or JNI function returned an error: says which function and which error. */
public class JvmtiException extends RuntimeException {
    @Serial
    private static final long serialVersionUID = 1L;

    private final String function;
    private final int code;

    public JvmtiException(String function, int code) {
        this(function, code, describe(function, code));
    }

    public JvmtiException(String function, int code, String message) {
        super(message);
        this.function = function;
        this.code = code;
    }

    private static String describe(String function, int code) {
        JvmtiError error = JvmtiError.of(code);
        return function + " failed: " + (error == null ? "unknown error" : error.name()) + " (" + code + ")";
    }

    /** The JVMTI function that failed, e.g. {@code GetClassSignature}. */
    public String function() {
        return function;
    }

    /** The error by name, or {@code null} when the code is not one {@code jvmti.h} defines. */
    public JvmtiError error() {
        return JvmtiError.of(code);
    }

    /** The raw error code. */
    public int code() {
        return code;
    }
}
