package dev.tiprobe.agent.tracing;

import java.io.IOException;
import java.io.InputStream;
import java.lang.classfile.ClassHierarchyResolver;
import java.lang.constant.ClassDesc;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * The JDK's own class files, read from the run-time image ({@code jrt:/}) to describe their
 * hierarchy to the verifier: no class is loaded and no URL is made. The JDK's default resolver
 * falls back to loading the class, and reading a resource through a class loader goes through
 * {@code java.net}: instrumenting {@code java.net.InetAddress} or {@code java.nio.HeapCharBuffer}
 * while they load asked for them again on the same thread, and they were left unchanged with
 * {@link ClassCircularityError}.
 */
final class JdkClassFiles {
    private JdkClassFiles() {}

    /** The resolver over the image's class files; null for a class the image does not hold. */
    static final ClassHierarchyResolver RESOLVER = ClassHierarchyResolver.ofResourceParsing(JdkClassFiles::open);

    /** The image's module of each package asked for ("" when none holds it). */
    private static final Map<String, String> MODULES = new ConcurrentHashMap<>();

    private static final class Image {
        static final FileSystem JRT = FileSystems.getFileSystem(URI.create("jrt:/"));
    }

    private static InputStream open(ClassDesc desc) {
        if (!desc.isClassOrInterface()) return null;
        String d = desc.descriptorString();
        String internal = d.substring(1, d.length() - 1);
        int slash = internal.lastIndexOf('/');
        if (slash < 0) return null;
        try {
            String module = MODULES.computeIfAbsent(internal.substring(0, slash).replace('/', '.'), JdkClassFiles::moduleOf);
            if (module.isEmpty()) return null;
            Path file = Image.JRT.getPath("/modules", module, internal + ".class");
            return Files.isRegularFile(file) ? Files.newInputStream(file) : null;
        } catch (IOException | RuntimeException | LinkageError e) {
            return null;  // not the JDK's, or no image to read: the next resolver answers
        }
    }

    /** The module holding {@code pkg} in the image ({@code /packages/<pkg>/<module>}), or "". */
    private static String moduleOf(String pkg) {
        Path dir = Image.JRT.getPath("/packages", pkg);
        if (!Files.isDirectory(dir)) return "";
        try (Stream<Path> modules = Files.list(dir)) {
            return modules.map(m -> m.getFileName().toString()).findFirst().orElse("");
        } catch (IOException e) {
            return "";
        }
    }
}
