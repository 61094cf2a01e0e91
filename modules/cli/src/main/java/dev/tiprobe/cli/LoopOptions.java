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
    AgentOptions.Loop loop() throws CliException {
        if (period == null) {
            Map<Setting, String> given = new EnumMap<>(Setting.class);
            TraceOptions.given(given, Setting.KEEP, keep);
            try {
                Setting.checkNeeds(given, null, Setting.Naming.COMMAND);  // what --loop needs, the session's settings check
            } catch (IllegalArgumentException e) {
                throw new UsageException(e.getMessage());
            }
            return null;
        }
        try {
            return new AgentOptions.Loop(AgentOptions.duration("--loop", period),
                    keep == null ? AgentOptions.Loop.DEFAULT_KEEP : keep);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--loop: " + e.getMessage());
        }
    }
}
