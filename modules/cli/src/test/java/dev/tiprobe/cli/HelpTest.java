package dev.tiprobe.cli;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every subcommand answers -h/--help with its usage and an example, and -V/--version, exit 0. */
class HelpTest {
    record Result(int exit, String out, String err) {}

    static Result tiprobe(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = Main.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
        return new Result(exit, out.toString(), err.toString());
    }

    static final List<String> COMMANDS = List.of("list", "collect", "start", "status", "dump", "stop", "run", "report", "demo", "watch");

    @Test
    void everySubcommandPrintsItsUsageWithAnExample() {
        for (String command : COMMANDS) {
            for (String flag : List.of("-h", "--help")) {
                Result r = tiprobe(command, flag);
                assertEquals(0, r.exit(), command + " " + flag + ": " + r.err());
                assertTrue(r.out().startsWith("Usage: tiprobe " + command), command + ": " + r.out());
                assertTrue(r.out().contains("Example") && r.out().contains("  tiprobe " + command), command + " shows an example: " + r.out());
                assertEquals("", r.err(), command + " " + flag);
            }
        }
        Result top = tiprobe("--help");
        assertEquals(0, top.exit());
        assertTrue(top.out().contains("Exit codes: 0 ok, 1 failure, 2 usage, 130 Ctrl-C, 143 SIGTERM."), top.out());
    }

    /** A misspelt flag is named, also when its value follows it and would otherwise fail as the pid. */
    @Test
    void aMisspeltFlagIsNamed() {
        Result spaced = tiprobe("-d", "5", "--smaple", "1ms", "4242");
        assertEquals(2, spaced.exit());
        assertEquals("tiprobe collect: Unknown option: '--smaple'", spaced.err().lines().findFirst().orElse(""), spaced.err());
        Result badPid = tiprobe("-d", "5", "abc");
        assertEquals(2, badPid.exit());
        assertEquals("tiprobe collect: Invalid value for positional parameter at index 0 (<pid>): 'abc' is not a pid"
                + " (a process id, as 'tiprobe list' shows)", badPid.err().lines().findFirst().orElse(""), badPid.err());
        assertEquals(2, tiprobe("status", "-3").exit());
    }

    /** A misspelt command is named as such, not refused as collect's pid. */
    @Test
    void aMisspeltCommandIsNamed() {
        Result typo = tiprobe("stauts", "4242");
        assertEquals(2, typo.exit());
        assertEquals("tiprobe: 'stauts' is neither a command nor a pid; the commands: list, collect, start, status, dump, stop, run,"
                + " report, demo, watch, help", typo.err().lines().findFirst().orElse(""), typo.err());
    }

    /** The options table names the command's flags as they are: each is a flag of collect, start or watch. */
    @Test
    void everyFlagOfTheOptionsTableIsTheCommands() {
        picocli.CommandLine cli = Main.commandLine();
        java.util.Set<String> flags = new java.util.HashSet<>();
        for (String command : List.of("collect", "start", "watch")) {
            for (picocli.CommandLine.Model.OptionSpec o : cli.getSubcommands().get(command).getCommandSpec().options()) {
                flags.addAll(List.of(o.names()));
                if (o.negatable()) for (String name : o.names()) flags.add(name.replaceFirst("^--", "--no-"));
            }
        }
        for (dev.tiprobe.options.Setting s : dev.tiprobe.options.Setting.values()) {
            for (String flag : s.flags()) assertTrue(flags.contains(flag), s + "'s " + flag + " is a flag of the command: " + flags);
        }
    }

    /** Every flag that the help of collect, start, run, report and watch lists is documented in docs/. */
    @Test
    void everyFlagIsInTheDocs() throws java.io.IOException {
        java.nio.file.Path docs = java.nio.file.Path.of("..", "..", "docs");  // the tests run in the module's directory
        StringBuilder text = new StringBuilder();
        try (var pages = java.nio.file.Files.list(docs)) {
            for (java.nio.file.Path page : pages.filter(p -> p.toString().endsWith(".md")).toList()) text.append(java.nio.file.Files.readString(page));
        }
        java.util.regex.Pattern flag = java.util.regex.Pattern.compile("(?<![\\w-])--[a-z][a-z-]*");
        List<String> missing = new java.util.ArrayList<>();
        for (String command : List.of("collect", "start", "run", "report", "watch")) {
            java.util.regex.Matcher m = flag.matcher(tiprobe(command, "--help").out());
            while (m.find()) {
                if (!java.util.regex.Pattern.compile(java.util.regex.Pattern.quote(m.group()) + "(?![\\w-])").matcher(text).find()) {
                    missing.add(command + " " + m.group());
                }
            }
        }
        assertEquals(List.of(), missing.stream().distinct().toList(), "flags the docs do not name");
    }

    /** A description picocli cannot format (a bare '%') prints a warning on stderr in the middle of the help. */
    @Test
    void everyHelpTextFormatsWithoutAWarning() {
        java.io.PrintStream stderr = System.err;
        java.io.ByteArrayOutputStream warnings = new java.io.ByteArrayOutputStream();
        System.setErr(new java.io.PrintStream(warnings, true));
        try {
            tiprobe("--help");
            for (String command : COMMANDS) tiprobe(command, "--help");
        } finally {
            System.setErr(stderr);
        }
        assertEquals("", warnings.toString());
    }

    /** {@code -o} takes asprof's formats in any case, and a format it does not know is a usage error naming them, before any attach. */
    @Test
    void collectsOutputFormatsAreAsprofs() {
        Result unknown = tiprobe("collect", "-o", "svg", "1");
        assertEquals(2, unknown.exit(), unknown.err());
        assertTrue(unknown.err().contains("'svg' is no format: use flat, traces, collapsed, flamegraph, jfr, pprof"), unknown.err());
        assertEquals(CollectCommand.OutputFormat.PPROF, parsedFormat("PProf"));
    }

    /** A file of a format tiprobe does not write is a usage error naming those it does, for every command that writes one, before any attach. */
    @Test
    void anOutputFileOfNoKnownFormatIsAUsageError() {
        for (String[] args : new String[][] {{"collect", "-d", "2", "-f", "x.bogus", "1"}, {"start", "-f", "x.bogus", "1"},
                {"run", "-f", "x.bogus", "--", "java", "-version"}}) {
            Result r = tiprobe(args);
            assertEquals(2, r.exit(), String.join(" ", args) + ": " + r.err());
            assertTrue(r.err().contains("unknown format of 'x.bogus': use .json"), r.err());
        }
    }

    private static CollectCommand.OutputFormat parsedFormat(String value) {
        CollectCommand c = new CollectCommand();
        new picocli.CommandLine(c).parseArgs("-o", value, "1");
        return c.format;
    }

    @Test
    void everySubcommandAndTheToolItselfNameTheirVersion() {
        Result top = tiprobe("--version");
        assertEquals(0, top.exit());
        assertTrue(top.out().startsWith("tiprobe "), top.out());
        for (String command : COMMANDS) {
            Result r = tiprobe(command, "-V");
            assertEquals(0, r.exit(), command + ": " + r.err());
            assertEquals(top.out(), r.out(), command);
        }
    }

    /** {@code -d} reads the one duration grammar, and a plain number as seconds (asprof's {@code -d 30}). */
    @Test
    void collectsDurationIsAsprofsAndTheOptionsGrammar() {
        CollectCommand.DurationConverter d = new CollectCommand.DurationConverter();
        assertEquals(java.time.Duration.ofSeconds(30), d.convert("30"));
        assertEquals(java.time.Duration.ofMinutes(2), d.convert("2m"));
        assertEquals(java.time.Duration.ofMillis(500), d.convert("500ms"));
        Result zero = tiprobe("collect", "-d", "0", "1");
        assertEquals(2, zero.exit(), zero.err());
        assertTrue(zero.err().contains("-d must be a positive duration such as 30 (seconds), 500ms, 5m or 1h, not '0'"), zero.err());
    }

    /** A malformed watch is a usage error named by its position, before any process is touched (pid 1 is never attached). */
    @Test
    void aMalformedWatchIsRefusedBeforeAnyAttach() {
        Result condition = tiprobe("watch", "--where", "order.qty >> 2", "1", "shop.Shop::checkout");
        assertEquals(2, condition.exit(), condition.err());
        assertEquals("tiprobe watch: a value is missing at position 11 of 'order.qty >> 2'", condition.err().lines().findFirst().orElseThrow());
        Result filter = tiprobe("watch", "1", "shop.Shop::check(");
        assertEquals(2, filter.exit(), filter.err());
        assertTrue(filter.err().startsWith("tiprobe watch: missing ')'"), filter.err());
        Result stack = tiprobe("watch", "--stack", "1", "shop.Shop::checkout");
        assertEquals(2, stack.exit(), stack.err());
        assertTrue(stack.err().startsWith("tiprobe watch: --stack shows the callers of the calls --where keeps"), stack.err());
    }

    @Test
    void aTraceLimitOutsideTraceModeIsAUsageError() {
        Result r = tiprobe("collect", "-d", "1s", "--trace", "a.**", "--max-calls", "5", "1");
        assertEquals(2, r.exit(), r.err());
        assertEquals("tiprobe collect: --max-calls is for trace mode: it needs --trace <filter> and --mode trace", r.err().lines().findFirst().orElseThrow());
    }
}
