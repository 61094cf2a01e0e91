package dev.tiprobe.filter;

/**
 * What the user writes and tiprobe parses, a {@link MethodFilter} or a {@link CallCondition}. Its
 * text decides everything it does: two are equal when written the same, and each shows as its text.
 */
public abstract sealed class Parsed permits MethodFilter, CallCondition {
    private final String text;

    Parsed(String text) {
        this.text = text;
    }

    @Override
    public final boolean equals(Object o) {
        return o != null && o.getClass() == getClass() && ((Parsed) o).text.equals(text);
    }

    @Override
    public final int hashCode() {
        return text.hashCode();
    }

    @Override
    public final String toString() {
        return text;
    }
}
