package dev.tiprobe.filter;

/**
 * Text that does not parse, a filter or a condition: the message names the position (0-based) in
 * the text, so the command can say where before it touches any process.
 */
public class SyntaxException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;
    private final int position;

    SyntaxException(String message, String text, int position) {
        super(message + " at position " + position + " of '" + text + "'");
        this.position = position;
    }

    public int position() {
        return position;
    }
}
