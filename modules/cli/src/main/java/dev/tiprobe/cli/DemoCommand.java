package dev.tiprobe.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
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
        RunCommand.Finished done = RunCommand.launch(command, "trace=" + FILTER + ",mode=trace,rate=0,sample=4,maxcalls=5000,file=" + json, true, json);
        if (done.exit() != 0) throw new CliException("the demo workload exited with " + done.exit());
        Recording r = Recording.read(json);
        OutputFiles.write(txt, w -> TextReport.write(r, w, 20, 200));
        PrintWriter out = spec.commandLine().getOut();
        TextReport.write(new Recording(r.mode(), r.filter(), r.droppedCalls(), r.probeFailures(), r.methods(),
                List.of(), List.of(), r.classFailures(), r.removedForOverhead()), out, 6, 0);
        out.printf("%nA few of the %d calls recorded (one in four)%n", r.calls().size());
        for (Recording.Call c : interesting(r.calls())) out.println("  " + TextReport.call(c));
        out.println();
        out.println("Wrote " + json + ", " + txt + " and the recording " + Report.recordingFor(json));
        return Main.OK;
    }

    /** A few calls worth reading: prices with their tier, a discount, reservations that ran out. */
    private static List<Recording.Call> interesting(List<Recording.Call> calls) {
        List<Recording.Call> out = new java.util.ArrayList<>();
        calls.stream().filter(c -> c.method().contains(".total(")).limit(2).forEach(out::add);
        calls.stream().filter(c -> c.method().contains("Rule.apply(")).limit(1).forEach(out::add);
        calls.stream().filter(c -> c.threw() && c.method().contains(".reserve(")).limit(2).forEach(out::add);
        return out;
    }
}
