package dev.tiprobe.agent.tracing;

import dev.tiprobe.jvmti.Jvmti;

import java.io.IOException;
import java.io.InputStream;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.constantpool.ClassEntry;
import java.lang.instrument.Instrumentation;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * Makes the probe classes (tiprobe-probe.jar) visible to every class loader: injected code in any
 * class calls them, so they must live in the boot loader.
 *
 * <p>Why not just append the jar to the bootstrap search: with class data sharing on (the JDK's
 * default), appending while the VM runs makes the JDK print "Sharing is only supported for boot
 * loader classes because bootstrap classpath has been appended" into the program's own output.
 * So, once the VM is up, the classes are defined in the boot loader one by one (JNI DefineClass,
 * superclasses and interfaces first), which prints nothing. Inside premain JNI is not reachable
 * yet; there the jar is appended unless the command line already put it on the boot path
 * ({@code -Xbootclasspath/a:}, which {@code tiprobe run} adds and which CDS accepts silently).
 */
final class ProbeClasses {
    private static final String PACKAGE = "dev/tiprobe/probe/";

    private ProbeClasses() {}

    /** Defines the jar's probe classes in the boot loader, unless the command line put it there. */
    static void defineInBootLoader(Jvmti jvmti, Path jar) throws IOException {
        if (onBootPathFromCommandLine(jar)) return;
        for (byte[] classFile : inDefinitionOrder(read(jar))) jvmti.defineInBootLoader(classFile);
    }

    /** Premain: appends the jar to the bootstrap search (the JDK warns), unless the command line put it there. */
    static void appendToBootPath(Instrumentation inst, Path jar) throws IOException {
        if (onBootPathFromCommandLine(jar)) return;
        inst.appendToBootstrapClassLoaderSearch(new JarFile(jar.toFile()));
    }

    /**
     * True when {@code -Xbootclasspath/a:} named this jar. (The VM keeps the appended path to
     * itself; the platform loader asks the boot loader first, so it finds what that path holds.)
     */
    static boolean onBootPathFromCommandLine(Path jar) {
        URL found = ClassLoader.getPlatformClassLoader().getResource(PACKAGE + "Probe.class");
        if (found == null || !found.getProtocol().equals("jar")) return false;
        String file = found.getPath();  // file:/path/tiprobe-probe.jar!/dev/tiprobe/probe/Probe.class
        int bang = file.indexOf("!/");
        try {
            return bang > 0 && Path.of(new URI(file.substring(0, bang))).equals(jar.toAbsolutePath().normalize());
        } catch (URISyntaxException | IllegalArgumentException e) {
            return false;
        }
    }

    /** The class files of the probe package in the jar, by internal name. */
    static Map<String, byte[]> read(Path jar) throws IOException {
        Map<String, byte[]> classes = new LinkedHashMap<>();
        try (JarFile file = new JarFile(jar.toFile())) {
            Enumeration<JarEntry> entries = file.entries();
            while (entries.hasMoreElements()) {
                JarEntry e = entries.nextElement();
                String name = e.getName();
                if (!name.startsWith(PACKAGE) || !name.endsWith(".class")) continue;
                try (InputStream in = file.getInputStream(e)) {
                    classes.put(name.substring(0, name.length() - ".class".length()), in.readAllBytes());
                }
            }
        }
        if (classes.isEmpty()) throw new IOException(jar + " holds no probe classes");
        return classes;
    }

    /**
     * The class files ordered so that each comes after its superclass and interfaces among them:
     * defining a class makes the VM load its supertypes, which must already be there.
     */
    static List<byte[]> inDefinitionOrder(Map<String, byte[]> classes) {
        List<byte[]> ordered = new ArrayList<>(classes.size());
        Map<String, Boolean> placed = new LinkedHashMap<>();
        for (String name : classes.keySet()) place(name, classes, placed, ordered);
        return ordered;
    }

    private static void place(String name, Map<String, byte[]> classes, Map<String, Boolean> placed, List<byte[]> ordered) {
        byte[] bytes = classes.get(name);
        if (bytes == null) return;  // a JDK type: the boot loader has it
        Boolean done = placed.get(name);
        if (done != null) {
            if (!done) throw new IllegalStateException("the probe classes' supertypes form a cycle at " + name);
            return;
        }
        placed.put(name, false);
        ClassModel model = ClassFile.of().parse(bytes);
        model.superclass().ifPresent(s -> place(s.asInternalName(), classes, placed, ordered));
        for (ClassEntry i : model.interfaces()) place(i.asInternalName(), classes, placed, ordered);
        placed.put(name, true);
        ordered.add(bytes);
    }
}
