package dev.tiprobe.agent.tracing;

import dev.tiprobe.agent.registry.Loaders;
import dev.tiprobe.ids.ClassToken;
import dev.tiprobe.ids.HumanNames;
import dev.tiprobe.ids.IdMap;
import dev.tiprobe.ids.MethodToken;
import dev.tiprobe.ids.ParameterNames;
import dev.tiprobe.probe.ProbeControl;

import java.lang.classfile.Attributes;
import java.lang.classfile.MethodModel;
import java.lang.classfile.attribute.LineNumberInfo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * The compact ints that enter probes carry: one per instrumented method, given at transform time,
 * stable for the session (a class retransformed again gets the same ones). Each slot's method
 * token is interned in the ID map, so recordings share one symbol table.
 */
final class ProbeSlots implements Instrumenter.Slots {
    /** What a slot stands for. */
    record Method(int slot, int tokenId, MethodToken token, String humanName, List<String> parameterNames) {}

    private final IdMap map;
    private final Loaders loaders;
    /** (loader, package) to module name and version, or null: for class tokens of named modules. */
    private final BiFunction<ClassLoader, String, Module> moduleOf;
    private final Map<String, Integer> byKey = new HashMap<>();
    private final List<Method> methods = new ArrayList<>();

    ProbeSlots(IdMap map, Loaders loaders, BiFunction<ClassLoader, String, Module> moduleOf) {
        this.map = map;
        this.loaders = loaders;
        this.moduleOf = moduleOf;
    }

    @Override
    public synchronized int slotFor(String binaryName, ClassLoader loader, String codeSource, MethodModel m,
                                    byte[] classFile) {
        ClassToken classToken = classToken(binaryName, loader, codeSource);
        String name = m.methodName().stringValue();
        String desc = m.methodType().stringValue();
        String key = classToken.text() + "::" + name + desc;
        Integer known = byKey.get(key);
        if (known != null) return known;
        String generic = m.findAttribute(Attributes.signature()).map(s -> s.signature().stringValue()).orElse(null);
        int[] lines = m.code().flatMap(c -> c.findAttribute(Attributes.lineNumberTable())).map(t -> {
            List<LineNumberInfo> l = t.lineNumbers();
            int[] pairs = new int[l.size() * 2];
            for (int i = 0; i < l.size(); i++) {
                pairs[2 * i] = l.get(i).startPc();
                pairs[2 * i + 1] = l.get(i).lineNumber();
            }
            return pairs;
        }).orElse(new int[0]);
        MethodToken token = new MethodToken(classToken, name, desc, generic, m.flags().flagsMask(), lines);
        List<String> parameters = parameterNames(classFile).get(name + desc);
        m.parent().flatMap(c -> c.findAttribute(Attributes.sourceFile()))
                .ifPresent(f -> map.sourceFile(classToken, f.sourceFile().stringValue()));
        int slot = methods.size();
        methods.add(new Method(slot, map.internMethodToken(token), token, HumanNames.method(token, parameters), parameters));
        byKey.put(key, slot);
        ProbeControl.reserve(slot + 1);
        return slot;
    }

    private byte[] lastClassFile;
    private Map<String, List<String>> lastNames;

    /** Parameter names of the class being transformed, parsed once per class file. */
    private Map<String, List<String>> parameterNames(byte[] classFile) {
        if (classFile != lastClassFile) {
            lastNames = ParameterNames.of(classFile);
            lastClassFile = classFile;
        }
        return lastNames;
    }

    private ClassToken classToken(String binaryName, ClassLoader loader, String codeSource) {
        int dot = binaryName.lastIndexOf('.');
        Module module = moduleOf.apply(loader, dot < 0 ? "" : binaryName.substring(0, dot).replace('.', '/'));
        String moduleName = module != null && module.isNamed() ? module.getName() : null;
        String version = moduleName != null && module.getDescriptor() != null
                ? module.getDescriptor().rawVersion().orElse(null) : null;
        return new ClassToken(ClassToken.stableName(binaryName), loaders.of(loader), moduleName, version, codeSource);
    }

    synchronized int size() {
        return methods.size();
    }

    synchronized List<Method> methods() {
        return List.copyOf(methods);
    }
}
