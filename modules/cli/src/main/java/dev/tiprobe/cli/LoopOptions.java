package dev.tiprobe.cli;

import dev.tiprobe.options.AgentOptions;
import dev.tiprobe.options.Setting;

import java.util.EnumMap;
import java.util.Map;

import picocli.CommandLine.Option;


/** {@code --loop} and {@code --keep}: continuous profiling, for {@code collect} and {@code start}. */
final class LoopOptions {
    @Option(names = "--loop", paramLabel = "<period>",
            description = "Continuous profiling: finish the recording every <period> (60s, 5m) and begin the next, each complete"
                    + " on its own; put %%t in -f's name. Profiles only, no --trace.")
    String period;

    @Option(names = "--keep", paramLabel = "<n>", description = "With --loop: how many of the newest files stay (default: "
            + AgentOptions.Loop.DEFAULT_KEEP + ").")
    Integer keep;

    /** The loop these flags ask for, or null; a usage error, before any attach, for flags that do not go together. */
    AgentOptions.Loop loop(TraceOptions trace) throws CliException {
        Map<Setting, String> given = new EnumMap<>(Setting.class);
        TraceOptions.given(given, Setting.LOOP, period);
        TraceOptions.given(given, Setting.KEEP, keep);
        try {
            Setting.checkNeeds(given, null, Setting.Naming.COMMAND);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        if (period == null) return null;
        if (trace.filter != null) throw new UsageException("--loop rotates profiles: it takes --sample, --alloc or --lock, and no --trace");
        if (!trace.file().contains("%t")) {
            throw new UsageException("--loop writes a file per period: put %t in -f's name, e.g. -f 'profiles/cpu-%t.pb.gz'");
        }
        try {
            return new AgentOptions.Loop(AgentOptions.duration("--loop", period),
                    keep == null ? AgentOptions.Loop.DEFAULT_KEEP : keep);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--loop: " + e.getMessage());
        }
    }
}
