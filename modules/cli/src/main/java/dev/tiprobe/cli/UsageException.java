package dev.tiprobe.cli;

/** Options that do not go together, found after parsing: a usage error (exit 2), like picocli's own. */
final class UsageException extends CliException {
    private static final long serialVersionUID = 1L;

    UsageException(String message) {
        super(message);
    }
}
