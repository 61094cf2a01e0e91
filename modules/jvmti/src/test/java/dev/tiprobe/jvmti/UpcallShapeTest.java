package dev.tiprobe.jvmti;

import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.CodeElement;
import java.lang.classfile.CodeModel;
import java.lang.classfile.Instruction;
import java.lang.classfile.Label;
import java.lang.classfile.MethodModel;
import java.lang.classfile.instruction.ExceptionCatch;
import java.lang.classfile.instruction.InvokeDynamicInstruction;
import java.lang.classfile.instruction.InvokeInstruction;
import java.lang.classfile.instruction.LabelTarget;
import java.lang.classfile.instruction.NewMultiArrayInstruction;
import java.lang.classfile.instruction.NewObjectInstruction;
import java.lang.classfile.instruction.NewPrimitiveArrayInstruction;
import java.lang.classfile.instruction.NewReferenceArrayInstruction;
import java.lang.constant.MethodTypeDesc;
import java.lang.reflect.AccessFlag;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Nothing can escape a JVMTI callback: a Throwable leaving an upcall makes the JVM exit with
 * status 1, silently when the heap is full. In a full heap the JVM throws OutOfMemoryError at any
 * allocation, so every callback of {@link Event} may allocate, or call what may, only inside a try
 * that catches Throwable. Outside one it may call only what never throws ({@link Upcalls#enter},
 * {@link Upcalls#leave}, {@link Events#failed}, {@code System.nanoTime}) and the callbacks' shared
 * bodies, which this test holds to the same rule. (An allocation before the try once let a program
 * filling its heap exit with status 1 and no word.)
 */
class UpcallShapeTest {
    private static final Set<String> NEVER_THROW = Set.of(
            "dev/tiprobe/jvmti/Upcalls.enter", "dev/tiprobe/jvmti/Upcalls.leave",
            "dev/tiprobe/jvmti/Events.failed", "java/lang/System.nanoTime");

    @Test
    void everyCallbackAllocatesAndCallsOnlyInsideATryThatCatchesThrowable() throws Exception {
        ClassModel event;
        try (InputStream in = Event.class.getResourceAsStream("Event.class")) {
            event = ClassFile.of().parse(in.readAllBytes());
        }
        List<MethodModel> callbacks = event.methods().stream().filter(UpcallShapeTest::isCallback).toList();
        Set<String> names = new HashSet<>();
        callbacks.forEach(m -> names.add(m.methodName().stringValue()));
        assertTrue(names.containsAll(Set.of("deliver", "classFileLoadHook", "vmDeath", "sampledObjectAlloc", "classUnload")), names.toString());

        List<String> unguarded = new ArrayList<>();
        for (MethodModel m : callbacks) {
            CodeModel code = m.code().orElseThrow();
            List<ExceptionCatch> catchesAll = code.exceptionHandlers().stream()
                    .filter(c -> c.catchType().map(t -> t.asInternalName().equals("java/lang/Throwable")).orElse(true))
                    .toList();
            Set<Label> open = new HashSet<>();
            for (CodeElement element : code) {
                if (element instanceof LabelTarget target) {
                    for (ExceptionCatch c : catchesAll) {
                        if (c.tryEnd().equals(target.label())) open.remove(c.tryStart());
                        if (c.tryStart().equals(target.label())) open.add(c.tryStart());
                    }
                } else if (element instanceof Instruction instruction && open.isEmpty() && !safeOutsideATry(instruction, names)) {
                    unguarded.add(m.methodName().stringValue() + ": " + instruction);
                }
            }
        }
        assertEquals(List.of(), unguarded, "what may throw outside a try that catches Throwable");
    }

    /** The static methods of {@code Event} that take the JVM's env first and return nothing: the callbacks and their shared bodies. */
    private static boolean isCallback(MethodModel m) {
        MethodTypeDesc type = m.methodTypeSymbol();
        return m.flags().has(AccessFlag.STATIC) && !m.methodName().stringValue().startsWith("lambda$")
                && type.returnType().descriptorString().equals("V")
                && type.parameterCount() > 0 && type.parameterType(0).descriptorString().equals("J");
    }

    private static boolean safeOutsideATry(Instruction instruction, Set<String> callbacks) {
        if (instruction instanceof NewObjectInstruction || instruction instanceof NewReferenceArrayInstruction
                || instruction instanceof NewPrimitiveArrayInstruction || instruction instanceof NewMultiArrayInstruction
                || instruction instanceof InvokeDynamicInstruction) {
            return false;
        }
        if (instruction instanceof InvokeInstruction call) {
            String owner = call.owner().asInternalName();
            String name = call.name().stringValue();
            return NEVER_THROW.contains(owner + "." + name) || owner.equals("dev/tiprobe/jvmti/Event") && callbacks.contains(name);
        }
        return true;
    }
}
