package dev.tiprobe.ids;

import java.lang.classfile.Attributes;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.MethodModel;
import java.lang.classfile.attribute.CodeAttribute;
import java.lang.classfile.attribute.LocalVariableInfo;
import java.lang.classfile.attribute.MethodParameterInfo;
import java.lang.constant.ClassDesc;
import java.lang.constant.MethodTypeDesc;
import java.lang.reflect.AccessFlag;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Parameter names from class file bytes tiprobe sees (ClassFileLoadHook): the MethodParameters
 * attribute ({@code javac -parameters}) first, else the LocalVariableTable ({@code javac -g}).
 */
public final class ParameterNames {
    private ParameterNames() {}

    /**
     * Names by {@code name + descriptor} for every method that has them, e.g.
     * {@code "total(Ljava/lang/String;I)Ljava/util/List;" -> [customer, qty]}. Methods without
     * names are absent; a name the class file lacks is null.
     *
     * @throws IllegalArgumentException when the bytes are not a class file
     */
    public static Map<String, List<String>> of(byte[] classFile) {
        ClassModel model = ClassFile.of().parse(classFile);
        Map<String, List<String>> names = new HashMap<>();
        for (MethodModel m : model.methods()) {
            List<String> found = fromMethodParameters(m);
            if (found == null) found = fromLocalVariables(m);
            if (found != null) names.put(m.methodName().stringValue() + m.methodType().stringValue(), found);
        }
        return names;
    }

    private static List<String> fromMethodParameters(MethodModel m) {
        return m.findAttribute(Attributes.methodParameters()).map(a -> {
            List<String> list = new ArrayList<>();
            for (MethodParameterInfo p : a.parameters()) list.add(p.name().map(n -> n.stringValue()).orElse(null));
            return list;
        }).orElse(null);
    }

    private static List<String> fromLocalVariables(MethodModel m) {
        MethodTypeDesc type = m.methodTypeSymbol();
        int count = type.parameterCount();
        if (count == 0) return null;
        boolean isStatic = m.flags().has(AccessFlag.STATIC);
        int[] slots = new int[count];
        int slot = isStatic ? 0 : 1;
        for (int i = 0; i < count; i++) {
            slots[i] = slot;
            ClassDesc p = type.parameterType(i);
            slot += p.equals(java.lang.constant.ConstantDescs.CD_long) || p.equals(java.lang.constant.ConstantDescs.CD_double) ? 2 : 1;
        }
        String[] names = new String[count];
        boolean any = false;
        for (CodeAttribute code : m.findAttribute(Attributes.code()).stream().toList()) {
            for (var table : code.findAttributes(Attributes.localVariableTable())) {
                for (LocalVariableInfo v : table.localVariables()) {
                    if (v.startPc() != 0) continue;  // parameters are live from the first instruction
                    for (int i = 0; i < count; i++) {
                        if (slots[i] == v.slot()) {
                            names[i] = v.name().stringValue();
                            any = true;
                        }
                    }
                }
            }
        }
        return any ? Arrays.asList(names) : null;
    }
}
