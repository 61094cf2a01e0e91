package dev.tiprobe.agent.registry;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * Loads tiprobe's own classes before any callback can need them. Code that holds a lock a
 * callback also takes must never load a class: a program thread can take an allocation callback
 * while it loads a class of its own and holds that jar, and a class of tiprobe's, looked up
 * through the same class path, waits for that jar. The ID map's and the registry's classes are
 * few, and some of them first run on a rare path (two live classes of one name, an unload), so
 * all of them are loaded here, listed from where they came, not named by hand.
 */
final class LoadAhead {
    private LoadAhead() {}

    /**
     * Loads, without initializing, every class of {@code anchor}'s package that sits beside it
     * (in its jar or directory). Returns how many; 0 where the place cannot be listed (a class of
     * the boot loader has no code source), which leaves loading as lazy as before, as it does for
     * any class that will not load now.
     */
    static int packageOf(Class<?> anchor) {
        ClassLoader loader = anchor.getClassLoader();
        CodeSource source = anchor.getProtectionDomain().getCodeSource();
        if (loader == null || source == null || source.getLocation() == null) return 0;
        String folder = anchor.getPackageName().replace('.', '/') + '/';
        List<String> names;
        try {
            names = classNames(Path.of(source.getLocation().toURI()), folder);
        } catch (IOException | URISyntaxException | RuntimeException unlisted) {
            return 0;
        }
        int loaded = 0;
        for (String name : names) {
            try {
                loader.loadClass(name);
                loaded++;
            } catch (ClassNotFoundException | LinkageError | RuntimeException e) {
                // loads when first used, as it would without this
            }
        }
        return loaded;
    }

    /** The binary names of the classes directly in {@code folder} of a jar or a class directory. */
    static List<String> classNames(Path place, String folder) throws IOException {
        List<String> names = new ArrayList<>();
        if (Files.isDirectory(place)) {
            try (Stream<Path> files = Files.list(place.resolve(folder))) {
                files.map(f -> folder + f.getFileName()).filter(LoadAhead::isClass).forEach(f -> names.add(binaryName(f)));
            }
        } else {
            try (JarFile jar = new JarFile(place.toFile())) {
                for (JarEntry e : (Iterable<JarEntry>) jar.stream()::iterator) {
                    String path = e.getName();
                    if (path.startsWith(folder) && path.indexOf('/', folder.length()) < 0 && isClass(path)) names.add(binaryName(path));
                }
            }
        }
        return names;
    }

    private static boolean isClass(String path) {
        return path.endsWith(".class") && !path.endsWith("module-info.class") && !path.endsWith("package-info.class");
    }

    private static String binaryName(String path) {
        return path.substring(0, path.length() - ".class".length()).replace('/', '.');
    }
}
