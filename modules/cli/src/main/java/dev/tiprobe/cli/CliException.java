package dev.tiprobe.cli;

/** A failure to report in one line, {@code tiprobe <cmd>: message}, with exit code 1. */
class CliException extends Exception {
    private static final long serialVersionUID = 1L;

    CliException(String message) {
        super(message);
    }

    CliException(String message, Throwable cause) {
        super(message, cause);
    }
}
