import com.sun.tools.attach.VirtualMachine;

import java.lang.instrument.Instrumentation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What a recompile does to a program, without tiprobe: a plain Java agent retransforms the loaded
 * classes named in a file, one per line, in one call and with no transformer, so each keeps its
 * bytecodes and the JVM throws away the compiled code that inlined them. Compiled and put in a jar
 * with {@code Agent-Class: Retransform} and {@code Can-Retransform-Classes: true}; then
 * {@code java -cp <dir> Retransform <pid> <jar> <classes file>} loads it into the JVM.
 */
public class Retransform {
    public static void main(String[] args) throws Exception {
        VirtualMachine vm = VirtualMachine.attach(args[0]);
        try {
            vm.loadAgent(args[1], args[2]);
        } finally {
            vm.detach();
        }
    }

    public static void agentmain(String classesFile, Instrumentation inst) throws Exception {
        Set<String> names = new HashSet<>(Files.readAllLines(Path.of(classesFile)));
        List<Class<?>> chosen = new ArrayList<>();
        for (Class<?> c : inst.getAllLoadedClasses()) {
            if (names.contains(c.getName()) && inst.isModifiableClass(c)) chosen.add(c);
        }
        inst.retransformClasses(chosen.toArray(Class<?>[]::new));
        System.err.println("Retransform: " + chosen.size() + " of the " + names.size() + " classes named");
    }
}
