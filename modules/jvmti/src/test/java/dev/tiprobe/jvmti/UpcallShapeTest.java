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
import java.lang.classfile.Opcode;
import java.lang.classfile.instruction.ConstantInstruction;
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
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
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
        Set<String> stubbed = stubbedMethods(event);
        assertTrue(stubbed.size() >= 15 && names.containsAll(stubbed), "every method an upcall stub names is checked: " + stubbed + " in " + names);

        List<String> unguarded = new ArrayList<>();
        for (MethodModel m : callbacks) {
            for (Instruction i : unguarded(m.code().orElseThrow(), names)) unguarded.add(m.methodName().stringValue() + ": " + i);
        }
        assertEquals(List.of(), unguarded, "what may throw outside a try that catches Throwable");
    }

    /**
     * The instructions of {@code code} that may throw out of it: outside every try that catches
     * Throwable (a {@code finally} is no such try: it throws again), an allocation, an
     * invokedynamic, a call to what may throw, or an {@code athrow}; the {@code athrow} that ends
     * a {@code finally} is let be where everything the {@code finally} covers is guarded or
     * throws nothing itself, so that no exception can reach it.
     */
    private static List<Instruction> unguarded(CodeModel code, Set<String> callbacks) {
        List<ExceptionCatch> catches = code.exceptionHandlers();
        List<CodeElement> elements = code.elementList();
        // By the element's place (the API shares one object among like operand-less instructions):
        // whether it lies under a try that catches Throwable, the finally handler it comes after
        // (javac lays a finally's handler out after its try's catches, so the code that follows it
        // is that finally's), and what each finally covers.
        boolean[] guarded = new boolean[elements.size()];
        Label[] handlerOf = new Label[elements.size()];
        Map<Label, List<Integer>> covered = new HashMap<>();
        Set<Label> open = new HashSet<>();
        Set<Label> openFinally = new HashSet<>();
        Label handler = null;
        for (int at = 0; at < elements.size(); at++) {
            if (elements.get(at) instanceof LabelTarget target) {
                for (ExceptionCatch c : catches) {
                    Set<Label> ranges = catchesThrowable(c) ? open : c.catchType().isEmpty() ? openFinally : new HashSet<>();
                    if (c.tryEnd().equals(target.label())) ranges.remove(c.tryStart());
                    if (c.tryStart().equals(target.label())) ranges.add(c.tryStart());
                    if (c.handler().equals(target.label()) && c.catchType().isEmpty()) handler = target.label();
                }
            } else if (elements.get(at) instanceof Instruction) {
                guarded[at] = !open.isEmpty();
                handlerOf[at] = handler;
                for (ExceptionCatch c : catches) {
                    if (c.catchType().isEmpty() && openFinally.contains(c.tryStart())) {
                        covered.computeIfAbsent(c.handler(), h -> new ArrayList<>()).add(at);
                    }
                }
            }
        }
        List<Instruction> out = new ArrayList<>();
        for (int at = 0; at < elements.size(); at++) {
            if (!(elements.get(at) instanceof Instruction instruction) || guarded[at]) continue;
            if (instruction.opcode() == Opcode.ATHROW) {
                List<Integer> finallyCovers = handlerOf[at] == null ? null : covered.get(handlerOf[at]);
                boolean endsAQuietFinally = finallyCovers != null && finallyCovers.stream().allMatch(i -> guarded[i]
                        || ((Instruction) elements.get(i)).opcode() != Opcode.ATHROW && throwsNothing((Instruction) elements.get(i), callbacks));
                if (!endsAQuietFinally) out.add(instruction);
            } else if (!throwsNothing(instruction, callbacks)) {
                out.add(instruction);
            }
        }
        return out;
    }

    private static boolean catchesThrowable(ExceptionCatch c) {
        return c.catchType().map(t -> t.asInternalName().equals("java/lang/Throwable")).orElse(false);
    }

    /** The names of {@code Event}'s methods that its code names in a string: those given to {@code Upcalls.stub}. */
    private static Set<String> stubbedMethods(ClassModel event) {
        Set<String> methods = new HashSet<>();
        event.methods().forEach(m -> methods.add(m.methodName().stringValue()));
        Set<String> named = new HashSet<>();
        for (MethodModel m : event.methods()) {
            m.code().ifPresent(code -> code.forEach(e -> {
                if (e instanceof ConstantInstruction.LoadConstantInstruction ldc && ldc.constantValue() instanceof String text
                        && methods.contains(text)) {
                    named.add(text);
                }
            }));
        }
        return named;
    }

    /** The static methods of {@code Event} that take the JVM's env first and return nothing: the callbacks and their shared bodies. */
    private static boolean isCallback(MethodModel m) {
        MethodTypeDesc type = m.methodTypeSymbol();
        return m.flags().has(AccessFlag.STATIC) && !m.methodName().stringValue().startsWith("lambda$")
                && type.returnType().descriptorString().equals("V")
                && type.parameterCount() > 0 && type.parameterType(0).descriptorString().equals("J");
    }

    /** Whether {@code instruction} throws nothing of its own in a full heap: no allocation, no linking, no call but to what never throws. */
    private static boolean throwsNothing(Instruction instruction, Set<String> callbacks) {
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
