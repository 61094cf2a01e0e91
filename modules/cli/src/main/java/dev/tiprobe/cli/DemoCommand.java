package dev.tiprobe.cli;

import dev.tiprobe.report.Recording;
import dev.tiprobe.report.TracedText;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code tiprobe demo}: runs the bundled shop workload with tracing, writes the results
 * ({@code tiprobe-demo.json}, {@code .txt} and the recording) into a new temporary directory only
 * the user can enter, or where {@code -f} says, and prints the top methods and a few calls. A demo
 * leaves nothing in the current directory (a checkout would show its files as untracked).
 */
@Command(name = "demo", description = "Trace the bundled demo workload; write its results into a new temporary directory (or -f) and print a summary.",
        footerHeading = "%nExamples:%n", footer = {"  tiprobe demo", "  tiprobe demo -f /tmp/shop"})
final class DemoCommand implements Callable<Integer> {
    /** The shop, without the record's accessors (many calls, little to see). */
    static final String FILTER = "demo.shop.**;!demo.shop.Shop$Order";

    @Spec
    CommandSpec spec;

    @Option(names = {"-f", "--file"}, paramLabel = "<base>",
            description = "Base name of the outputs: .json, .txt and .tpr are added (default: tiprobe-demo in a new temporary directory).")
    String base;

    @Override
    public Integer call() throws CliException {
        Path home = Path.of(System.getProperty("java.home"));
        Path workload = home.resolve("lib").resolve("tiprobe-demo.jar");
        if (!Files.isRegularFile(workload)) throw new CliException("demo workload not found: " + workload);
        String named = base;
        if (named == null) {
            try {
                named = Files.createTempDirectory("tiprobe-demo-").resolve("tiprobe-demo").toString();  // rwx------
            } catch (IOException e) {
                throw new CliException("cannot make a directory for the demo's results: " + e.getMessage(), e);
            }
        }
        Path json = Path.of(named + ".json").toAbsolutePath();
        Path txt = Path.of(named + ".txt").toAbsolutePath();
        PrintWriter err = spec.commandLine().getErr();
        err.println("tiprobe demo: running the shop workload with --trace '" + FILTER + "' --mode trace");
        List<String> command = List.of(home.resolve("bin").resolve("java").toString(), "-cp",
                workload.toString(), "demo.shop.Shop");
        RunCommand.Finished done = RunCommand.launch(command, JavaLauncher.check(command.getFirst()), "trace=" + FILTER + ",mode=trace,rate=0,sample=4,maxcalls=5000,file=" + json, true, json);
        if (done.exit() != 0) throw new CliException("the demo workload exited with " + done.exit());
        Path recording = Report.recordingFor(json);
        Recording r = Exports.read(recording, err);
        Exports.write(r, recording, json);
        Exports.write(r, recording, txt);
        PrintWriter out = spec.commandLine().getOut();
        TextReport.methodTables(out, TracedText.methods(r), 6, "Top methods by calls", "Top methods by time (inclusive, wall clock)");
        List<Recording.Call> calls = TracedText.callsByStart(r);
        out.printf("%nA few of the %d calls recorded (one in four)%n", calls.size());
        for (Recording.Call c : interesting(r, calls)) out.println("  " + TracedText.call(r, c));
        out.println();
        out.println("Wrote " + json + ", " + txt + " and the recording " + recording);
        return Main.OK;
    }

    /** A few calls worth reading: an order shown by its fields, prices with their tier, a discount, reservations that ran out. */
    private static List<Recording.Call> interesting(Recording r, List<Recording.Call> calls) {
        List<Recording.Call> out = new java.util.ArrayList<>();
        calls.stream().filter(c -> r.tracedName(c.methodId()).contains(".checkout(")).limit(1).forEach(out::add);
        calls.stream().filter(c -> r.tracedName(c.methodId()).contains(".total(")).limit(2).forEach(out::add);
        calls.stream().filter(c -> r.tracedName(c.methodId()).contains("Rule.apply(")).limit(1).forEach(out::add);
        calls.stream().filter(c -> c.threw() && r.tracedName(c.methodId()).contains(".reserve(")).limit(2).forEach(out::add);
        return out;
    }
}
