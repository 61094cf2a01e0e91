package dev.tiprobe.jvmti;

import java.io.Serial;

/** JVMTI could not be reached: no libjvm, no created VM, or GetEnv refused the version. */
public class JvmtiUnavailableException extends RuntimeException {
    @Serial
    private static final long serialVersionUID = 1L;

    public JvmtiUnavailableException(String message) {
        super(message);
    }

    public JvmtiUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
