package dev.tiprobe.cli;

import dev.tiprobe.options.Setting;

import picocli.CommandLine.Command;

import java.util.EnumSet;

/** {@code --loop} and {@code --keep}, from the options table: continuous profiling, for {@code collect} and {@code start}. */
@Command  // a mixin of the table's flags only, which TableFlags adds
final class LoopOptions implements TableFlags.Holder {
    private final TableFlags table = new TableFlags(EnumSet.of(Setting.LOOP, Setting.KEEP), true);

    @Override
    public TableFlags tableFlags() {
        return table;
    }

    /** Whether a loop of recordings is asked for (whether it may be is the session's settings' to say). */
    boolean asked() {
        return table.has(Setting.LOOP);
    }
}
