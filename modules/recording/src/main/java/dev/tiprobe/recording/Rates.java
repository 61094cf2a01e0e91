package dev.tiprobe.recording;

import java.util.Locale;

/**
 * Call rates as people read them, the same in the agent's answers and the command's reports
 * (a removed probe's rate): {@code 4.1M calls/s}, {@code 52k calls/s}, {@code 900 calls/s}. A
 * fixed {@code %.1fM} showed every rate under 50,000 a second as {@code 0.0M}.
 */
public final class Rates {
    private Rates() {}

    public static String callsPerSecond(double perSecond) {
        if (perSecond >= 999_950) return String.format(Locale.ROOT, "%.1fM calls/s", perSecond / 1e6);
        if (perSecond >= 9_995) return String.format(Locale.ROOT, "%.0fk calls/s", perSecond / 1e3);
        if (perSecond >= 999.5) return String.format(Locale.ROOT, "%.1fk calls/s", perSecond / 1e3);
        return String.format(Locale.ROOT, "%.0f calls/s", perSecond);
    }
}
