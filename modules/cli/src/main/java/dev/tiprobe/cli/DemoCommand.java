package dev.tiprobe.cli;

import dev.tiprobe.recording.Call;
import dev.tiprobe.report.Recording;
import dev.tiprobe.report.TextReport;
import dev.tiprobe.report.TracedText;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code tiprobe demo}: runs the bundled shop workload twice, once traced and once profiled (CPU,
 * allocations and locks), writes the results ({@code tiprobe-demo.json}, {@code .txt}, the
 * recordings, and {@code tiprobe-demo-profile.html}, the flame graphs) into a new temporary
 * directory only the user can enter, or where {@code -f} says, and prints the top methods, a few
 * calls, and the profile's top methods, allocations and locks. Profiled in a run of its own: the
 * traced run's threads spend most of their time in tiprobe's instrumenting of the rules' classes,
 * which would crowd the shop's own methods out of the flame graph. A demo leaves nothing in the
 * current directory (a checkout would show its files as untracked).
 */
@Command(name = "demo", description = "Trace the bundled demo workload, then profile it (CPU, allocations, locks); write the results and a flame"
        + " graph page into a new temporary directory (or -f) and print a summary.",
        footerHeading = "%nExamples:%n", footer = {"  tiprobe demo", "  tiprobe demo -f /tmp/shop"})
final class DemoCommand implements Callable<Integer> {
    /** The shop, without the record's accessors (many calls, little to see). */
    static final String FILTER = "demo.shop.**;!demo.shop.Shop$Order";

    @Spec
    CommandSpec spec;

    @Option(names = {"-f", "--file"}, paramLabel = "<base>",
            description = "Base name of the outputs: .json, .txt, .tpr, -profile.html and -profile.html.tpr are added (default: tiprobe-demo in a new temporary directory).")
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
        List<String> command = new java.util.ArrayList<>(List.of(home.resolve("bin").resolve("java").toString()));
        command.addAll(jdkModulesOnly());
        command.addAll(List.of("-cp", workload.toString(), "demo.shop.Shop"));
        RunCommand.Finished done = RunCommand.launch(command, JavaLauncher.check(command.getFirst()), "trace=" + FILTER + ",mode=trace,rate=0,onein=4,maxcalls=5000,file=" + json, true, json, p -> { });
        if (done.exit() != 0) throw new CliException("the demo workload exited with " + done.exit());
        Path recording = Report.recordingFor(json);
        Recording r = Exports.read(recording, err);
        Exports.write(r, recording, json);
        Exports.write(r, recording, txt);
        PrintWriter out = spec.commandLine().getOut();
        TextReport.methodTables(out, TracedText.methods(r), 6, "Top methods by calls", "Top methods by time (inclusive, wall clock)");
        List<Call> calls = TracedText.callsByStart(r);
        out.printf("%nA few of the %d calls recorded (one in four)%n", calls.size());
        for (Call c : interesting(r, calls)) out.println("  " + TracedText.call(r, c));
        Path page = Path.of(named + "-profile.html").toAbsolutePath();
        err.println();
        err.println("tiprobe demo: running it again, the clerks busy for " + PROFILED_SECONDS + " s, profiled: " + PROFILE_FLAGS);
        List<String> open = new java.util.ArrayList<>(command);
        open.add(PROFILED_SECONDS);
        open.add("0");  // no pause between orders: a profile wants the CPU busy
        RunCommand.Finished profiled = RunCommand.launch(open, JavaLauncher.check(command.getFirst()), PROFILE + ",file=" + page, false, page, p -> { });
        if (profiled.exit() != 0) throw new CliException("the demo workload exited with " + profiled.exit());
        Path profile = Report.recordingFor(page);
        Recording p = Exports.read(profile, err);
        Exports.write(p, profile, page);
        out.println();
        TextReport.write(p, out, 10, 0);
        out.println();
        out.println("Wrote " + json + ", " + txt + " and the recording " + recording);
        out.println("Wrote the flame graphs " + page + " (CPU, allocations, locks: open it in a browser) and the recording " + profile);
        return Main.OK;
    }

    /**
     * The profiled run: the shop kept open a few seconds, its clerks never resting (its 1,000 orders
     * take half a second, mostly asleep: too little for a profile), CPU every millisecond,
     * allocations, every contended lock.
     */
    private static final String PROFILED_SECONDS = "8";
    private static final String PROFILE_FLAGS = "--sample 1ms --sample-mode cpu --alloc 64k --lock 0";
    private static final String PROFILE = "interval=1ms,samplemode=cpu,alloc=64k,lock=0";

    /**
     * The workload runs on tiprobe's own runtime, whose boot layer holds tiprobe's modules: it is
     * given the JDK's modules alone, so that the agent can define the module layer of its own that
     * has native access (its packages cannot sit beside those modules).
     */
    private static List<String> jdkModulesOnly() {
        List<String> jdk = java.lang.module.ModuleFinder.ofSystem().findAll().stream().map(m -> m.descriptor().name())
                .filter(name -> name.startsWith("java.") || name.startsWith("jdk.")).sorted().toList();
        return List.of("--limit-modules", String.join(",", jdk));
    }

    /** A few calls worth reading: an order shown by its fields, prices with their tier, a discount, reservations that ran out. */
    private static List<Call> interesting(Recording r, List<Call> calls) {
        List<Call> out = new java.util.ArrayList<>();
        calls.stream().filter(c -> r.tracedName(c.methodId()).contains(".checkout(")).limit(1).forEach(out::add);
        calls.stream().filter(c -> r.tracedName(c.methodId()).contains(".total(")).limit(2).forEach(out::add);
        calls.stream().filter(c -> r.tracedName(c.methodId()).contains("Rule.apply(")).limit(1).forEach(out::add);
        calls.stream().filter(c -> c.threw() && r.tracedName(c.methodId()).contains(".reserve(")).limit(2).forEach(out::add);
        return out;
    }
}
