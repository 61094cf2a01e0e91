package dev.tiprobe.agent.tracing;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether a class's nestmates can have class files: they can when the class came from a jar or
 * directory that exists, from a place that is not a local file (a nested jar, a remote URL), or
 * from a loader that gave no code source (many define classes they read as resources without
 * one), where the loader may still find them. A class whose code source names a local path that
 * does not exist (Groovy gives every script {@code file:/groovy/script}) was made in memory, and
 * so were the classes of its nest.
 */
final class NestFiles {
    private NestFiles() {
    }

    static boolean onDisk(String codeSource) {
        if (codeSource == null) return true;
        if (!codeSource.startsWith("file:")) return true;
        try {
            return Files.exists(Path.of(URI.create(codeSource)));
        } catch (RuntimeException notAPath) {
            return true;  // cannot tell: ask the loader, as for any other class
        }
    }

    /** The top-level class of a nest, by the binary-name convention: {@code a/B$C$1} → {@code a/B}. */
    static String topLevel(String internalName) {
        int dollar = internalName.indexOf('$', internalName.lastIndexOf('/') + 1);
        return dollar < 0 ? internalName : internalName.substring(0, dollar);
    }
}
