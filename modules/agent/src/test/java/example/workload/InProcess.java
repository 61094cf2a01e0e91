package example.workload;

import dev.tiprobe.agent.tracing.Results;
import dev.tiprobe.agent.tracing.Tracing;
import dev.tiprobe.options.AgentOptions.TraceMode;

import java.lang.invoke.MethodHandles;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;

/**
 * Tracing driven from application code, started after the traced classes loaded (so they are
 * retransformed), with a class of a throwaway loader and a hidden class, then stopped: after stop
 * no probe runs any more. Prints what it found; the test reads the lines.
 */
public class InProcess {
    public static void main(String[] args) throws Throwable {
        System.out.println("before " + Workload.fib(10));          // loaded and run before tracing
        Path classes = Path.of(args[0]);
        try (URLClassLoader throwaway = new URLClassLoader(new URL[] {classes.toUri().toURL()}, null)) {
            Class<?> other = throwaway.loadClass("example.workload.Plugin");
            byte[] bytes;
            try (var in = InProcess.class.getResourceAsStream("Plugin.class")) {
                bytes = in.readAllBytes();
            }
            Class<?> hidden = MethodHandles.lookup().defineHiddenClass(bytes, true).lookupClass();

            Tracing.Session session = Tracing.start("example.workload.Workload::fib;example.workload.Plugin", TraceMode.COUNT);
            System.out.println("during " + Workload.fib(10));       // 177 calls
            for (int i = 0; i < 3; i++) Plugin.run(i);
            for (int i = 0; i < 5; i++) other.getMethod("run", int.class).invoke(null, i);
            for (int i = 0; i < 7; i++) hidden.getMethod("run", int.class).invoke(null, i);
            Results results = session.stop();
            for (Results.MethodResult m : results.methods()) {
                System.out.println("count " + m.className() + "::" + m.method() + " " + m.calls());
            }
            System.out.println("failures " + results.classFailures().first());
            System.out.println("after " + Workload.fib(10));
            for (int i = 0; i < 3; i++) Plugin.run(i);
            long recorded = results.methods().stream().mapToLong(Results.MethodResult::calls).sum();
            long probes = java.util.Arrays.stream(dev.tiprobe.probe.ProbeControl.counts(results.methods().size())).sum();
            System.out.println("stopped " + (session.snapshot() == results) + " " + recorded + " probe " + probes);
            Tracing.Session second = Tracing.start("example.workload.Workload::fib", TraceMode.COUNT);
            Workload.fib(3);
            System.out.println("second " + second.stop().method("example.workload.Workload", "fib").calls());
        }
    }
}
