package dev.tiprobe.recording;

import java.util.Arrays;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/** Name globs, read alike by the agent's thread filter and by the report's filters. */
public final class Globs {
    private Globs() {}

    /** Whether a whole text matches {@code glob}, where {@code *} stands for any characters. */
    public static Predicate<String> glob(String glob) {
        String regex = Arrays.stream(glob.split("\\*", -1)).map(Pattern::quote).collect(Collectors.joining(".*"));
        return Pattern.compile(regex).asMatchPredicate();
    }
}
