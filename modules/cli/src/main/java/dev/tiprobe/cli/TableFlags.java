package dev.tiprobe.cli;

import dev.tiprobe.options.AgentOptions;
import dev.tiprobe.options.Setting;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A command's flags for session options, made from the options table ({@link Setting}): each
 * setting's flags, value and help as the table has them. What the user gives is kept as text,
 * with the flag it was given by, for {@link AgentOptions#of} to read and check: the command
 * parses and refuses values exactly as the agent does, naming the flag.
 */
final class TableFlags {
    /** A part of a command (the command itself or a mixin) that takes flags from the table. */
    interface Holder {
        TableFlags tableFlags();
    }

    private final Set<Setting> settings;
    private final boolean sayNeeds;
    private final Map<Setting, Setting.Given> given = new EnumMap<>(Setting.class);

    /**
     * @param settings the settings taken (one without flags, the agent's own, is left out)
     * @param sayNeeds whether each flag's help says what it needs beside it (not where the
     *                 command provides that itself, as watch provides trace mode)
     */
    TableFlags(Set<Setting> settings, boolean sayNeeds) {
        this.settings = settings;
        this.sayNeeds = sayNeeds;
    }

    /** Adds the table's flags of every part of {@code line}'s command that takes some: call before parsing. */
    static CommandLine addTo(CommandLine line) {
        CommandSpec command = line.getCommandSpec();
        Deque<CommandSpec> parts = new ArrayDeque<>(List.of(command));
        while (!parts.isEmpty()) {
            CommandSpec part = parts.pop();
            if (part.userObject() instanceof Holder h) {
                for (Setting s : h.tableFlags().settings) if (!s.flags().isEmpty()) command.addOption(h.tableFlags().option(s));
            }
            parts.addAll(part.mixins().values());
        }
        return line;
    }

    private OptionSpec option(Setting s) {
        List<String> names = s.flags().stream().filter(f -> !f.startsWith("--no-")).toList();
        String help = (sayNeeds ? s.commandHelp() : s.commandHelp(false)).replace("%", "%%");  // picocli formats descriptions
        OptionSpec.Builder b = OptionSpec.builder(names.toArray(String[]::new)).description(help)
                .getter(new CommandLine.Model.IGetter() {
                    @Override
                    @SuppressWarnings("unchecked")
                    public <T> T get() {
                        return null;  // nothing until given: the table's default is the agent options'
                    }
                })
                .setter(new CommandLine.Model.ISetter() {
                    @Override
                    public <T> T set(T value) {
                        if (value != null) given.put(s, given(s, names.getFirst(), value));
                        return null;
                    }
                });
        if (s.isSwitch()) return b.arity("0").type(Boolean.class).negatable(names.size() < s.flags().size()).build();
        return b.arity("1").type(String.class).paramLabel(s.valueLabel()).build();
    }

    /** A value as given: a switch as true or false, by the flag that says it ({@code --no-recompile}). */
    private static Setting.Given given(Setting s, String flag, Object value) {
        if (value instanceof Boolean on) return new Setting.Given(on ? flag : flag.replaceFirst("^--", "--no-"), on.toString());
        return new Setting.Given(s.flag(), value.toString());
    }

    /** Whether the user gave {@code s}. */
    boolean has(Setting s) {
        return given.containsKey(s);
    }

    /** The text given for {@code s}, or null. */
    String text(Setting s) {
        Setting.Given g = given.get(s);
        return g == null ? null : g.text();
    }

    /** What the user gave, each by its flag: a copy, for a command to add what it decides itself. */
    Map<Setting, Setting.Given> given() {
        return new EnumMap<>(given);
    }
}
