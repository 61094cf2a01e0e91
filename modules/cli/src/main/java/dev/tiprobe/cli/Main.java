package dev.tiprobe.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * {@code tiprobe}: one small class per subcommand, data to stdout, progress and errors to stderr
 * as {@code tiprobe <cmd>: message}; exit 0 ok, 1 failure, 2 usage. {@code collect} is the
 * default action: {@code tiprobe -d 10s --trace 'com.foo.**' -f out.json 1234}.
 */
@Command(name = "tiprobe", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = "Profiles and traces running JVMs (JDK 25+), pure Java on JVMTI and JFR: CPU and wall-clock flame graphs,"
                + " allocations, locks, and method tracing with arguments.",
        footerHeading = "%nExamples:%n",
        footer = {
            "  tiprobe list",
            "  tiprobe -d 30 4242                                   a CPU profile for 30 s: the top methods, printed",
            "  tiprobe -d 30s --sample 10ms -f cpu.html 4242        a flame graph page (CPU; --sample-mode wall for wall clock)",
            "  tiprobe -d 30s --alloc 512k --lock 1ms -f mem.html 4242",
            "  tiprobe collect -d 10s --trace 'com.foo.**' --mode time -f out.json 4242",
            "  tiprobe start --trace 'com.foo.Bar::get*' --args -f calls-%%p-%%t.json 4242",
            "  tiprobe status 4242; tiprobe dump 4242; tiprobe stop 4242",
            "  tiprobe run --sample 10ms -f cpu.pb.gz -- java -cp app.jar app.Main",
            "  tiprobe report cpu.html.tpr                          a recording (.tpr, .jfr) as text; -f cpu.collapsed, any format",
            "  tiprobe report new.tpr --diff old.tpr -f diff.html    what grew (red) and shrank (blue) since old",
            "  tiprobe report cpu.html.tpr -f cpu.jfr                the same as a JFR file, for JMC or IntelliJ IDEA",
            "  tiprobe watch -n 5 --tree --where 'duration > 10ms' 4242 'com.foo.Shop::checkout'",
            "  tiprobe demo",
            "",
            "Exit codes: 0 ok, 1 failure, 2 usage, 130 Ctrl-C, 143 SIGTERM."})
public final class Main implements Runnable {
    static final int OK = 0;
    static final int FAILURE = 1;
    static final int USAGE = 2;

    private static final Set<String> TOP_LEVEL = Set.of("-h", "--help", "-V", "--version");

    /**
     * The subcommands, in the order help lists them. A command line is built with the one its
     * arguments name only ({@link #commandLine(String...)}): Picocli reads each subcommand's
     * annotations when it is added, which for all of them took about half of a command's own start.
     */
    private static final List<Class<?>> SUBCOMMANDS = List.of(ListCommand.class, CollectCommand.class, StartCommand.class,
            StatusCommand.class, DumpCommand.class, StopCommand.class, RunCommand.class, ReportCommand.class, DemoCommand.class,
            WatchCommand.class, CommandLine.HelpCommand.class);

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    static int run(String... args) {
        return run(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args);
    }

    /** Runs the command line with its data going to {@code out} and its messages to {@code err}. */
    static int run(PrintWriter out, PrintWriter err, String... args) {
        if (args.length > 0 && !args[0].startsWith("-") && !args[0].startsWith("@") && !args[0].chars().allMatch(Character::isDigit)
                && !NAMES.contains(args[0]) && !TOP_LEVEL.contains(args[0])) {
            // `tiprobe stauts 12` would otherwise be refused as collect's pid
            err.println("tiprobe: '" + args[0] + "' is neither a command nor a pid; the commands: " + String.join(", ", NAMES_IN_ORDER));
            err.println("Try 'tiprobe --help'.");
            return USAGE;
        }
        String[] arguments = withDefaultCommand(args);
        CommandLine cli = commandLine(arguments);
        cli.setOut(out);
        cli.setErr(err);
        cli.setExecutionExceptionHandler((e, line, parsed) -> {
            PrintWriter messages = line.getErr();
            String name = line.getCommandName();
            if (e instanceof UsageException) {
                messages.println("tiprobe " + name + ": " + e.getMessage());
                messages.println("Try 'tiprobe " + name + " --help'.");
                return USAGE;
            } else if (e instanceof CliException) {
                messages.println("tiprobe " + name + ": " + e.getMessage());
            } else {
                messages.println("tiprobe " + name + ": unexpected " + e);
            }
            return FAILURE;
        });
        cli.setParameterExceptionHandler((e, a) -> {
            CommandLine line = e.getCommandLine();
            // A misspelt flag before its value: the value then fails as the pid, and the flag is what to name
            String misspelt = line.getUnmatchedArguments().stream().filter(u -> u.startsWith("-")).findFirst().orElse(null);
            boolean aValueRefused = !(e instanceof CommandLine.UnmatchedArgumentException || e instanceof CommandLine.MissingParameterException);
            String message = misspelt != null && aValueRefused ? "Unknown option: '" + misspelt + "'" : e.getMessage();
            line.getErr().println("tiprobe " + line.getCommandName() + ": " + message);
            line.getErr().println("Try 'tiprobe " + (line == cli ? "" : line.getCommandName() + " ") + "--help'.");
            return USAGE;
        });
        return cli.execute(arguments);
    }

    /** The command line with every subcommand. */
    static CommandLine commandLine() {
        return commandLine("help");
    }

    /**
     * The command line for {@code args} (the default command already put in front): with the
     * subcommand they name, or with every subcommand where they name none (help, the usage, a
     * top-level option); each with its flags, those of the options table included.
     */
    static CommandLine commandLine(String... args) {
        CommandLine cli = new CommandLine(new Main());
        boolean named = args.length > 0 && !args[0].equals("help") && NAMES.contains(args[0]);
        for (Class<?> type : SUBCOMMANDS) {
            if (named && !name(type).equals(args[0])) continue;
            CommandLine sub = new CommandLine(type);
            cli.addSubcommand(name(type), sub);
            TableFlags.addTo(sub);
            if (sub.getCommandSpec().userObject() instanceof CommandLine.HelpCommand) continue;
            // -h/--help and -V/--version on every subcommand too: help answers before any check of
            // the other options (required ones included), so `tiprobe collect --help` exits 0.
            sub.getCommandSpec().mixinStandardHelpOptions(true);
            sub.getCommandSpec().versionProvider(new Version());
        }
        cli.setCaseInsensitiveEnumValuesAllowed(true);
        return cli;
    }

    private static String name(Class<?> subcommand) {
        return subcommand.getAnnotation(Command.class).name();
    }

    private static final List<String> NAMES_IN_ORDER = SUBCOMMANDS.stream().map(Main::name).toList();
    private static final Set<String> NAMES = Set.copyOf(NAMES_IN_ORDER);

    /** {@code collect} when the first argument is neither a subcommand nor a top-level option. */
    private static String[] withDefaultCommand(String[] args) {
        if (args.length == 0 || NAMES.contains(args[0]) || TOP_LEVEL.contains(args[0])) return args;
        List<String> out = new ArrayList<>(List.of("collect"));
        out.addAll(List.of(args));
        return out.toArray(String[]::new);
    }

    /** The version of this module (the build's project version). */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = Main.class.getModule().getDescriptor() == null ? "dev"
                    : Main.class.getModule().getDescriptor().rawVersion().orElse("dev");
            return new String[] {"tiprobe " + version + " (Java " + Runtime.version() + ")"};
        }
    }
}
