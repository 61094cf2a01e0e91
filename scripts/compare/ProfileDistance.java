import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Self-time shares by Java method of folded-stack profiles, and the total variation distance
 * between them (0: the same profile, 1: nothing in common). Each stack's weight goes to its
 * innermost Java frame: async-profiler's native and kernel frames ({@code vtable stub},
 * {@code __memmove…}) are skipped down to the Java method that ran them, as JFR and tiprobe show
 * it. Names are compared without tiprobe's {@code jar!} or {@code module/} prefix and without
 * async-profiler's {@code _[j]} suffixes.
 *
 * <p>Usage: {@code java scripts/compare/ProfileDistance.java reference.collapsed other.collapsed…}
 * (a JFR file printed with {@code jfr print --events jdk.ExecutionSample --stack-depth 1} and
 * turned into {@code method 1} lines works too). Prints each profile's distance to the first and
 * the first's top methods with every profile's share.
 */
public class ProfileDistance {
    public static void main(String[] args) throws IOException {
        List<Map<String, Double>> shares = new ArrayList<>();
        for (String file : args) shares.add(shares(Path.of(file)));
        Map<String, Double> reference = shares.getFirst();
        for (int i = 1; i < args.length; i++) {
            System.out.printf("%-40s distance to %s: %.2f%n", args[i], args[0], distance(reference, shares.get(i)));
        }
        reference.entrySet().stream().sorted(Map.Entry.<String, Double>comparingByValue().reversed()).limit(10).forEach(e -> {
            StringBuilder row = new StringBuilder();
            for (Map<String, Double> s : shares) row.append(String.format("%6.1f", 100 * s.getOrDefault(e.getKey(), 0.0)));
            System.out.println(row + "  " + e.getKey());
        });
    }

    static Map<String, Double> shares(Path file) throws IOException {
        Map<String, Long> weights = new HashMap<>();
        long total = 0;
        for (String line : Files.readAllLines(file)) {
            int space = line.lastIndexOf(' ');
            if (space < 0) continue;
            long weight = Long.parseLong(line.substring(space + 1).strip());
            String[] frames = line.substring(0, space).split(";");
            String method = null;
            for (int i = frames.length - 1; i >= 0 && method == null; i--) method = javaMethod(frames[i]);
            if (method == null) continue;
            weights.merge(method, weight, Long::sum);
            total += weight;
        }
        Map<String, Double> shares = new HashMap<>();
        for (Map.Entry<String, Long> e : weights.entrySet()) shares.put(e.getKey(), (double) e.getValue() / total);
        return shares;
    }

    /** {@code org.h2.mvstore.Page.binarySearch} for a Java frame in any of the three spellings; null for a native one. */
    static String javaMethod(String frame) {
        String f = frame.replaceAll("_\\[.]$", "");
        f = f.substring(f.indexOf('!') + 1);
        if (f.startsWith("[") || f.contains("::") || f.contains(" ")) return null;
        if (!f.contains("/") && (f.startsWith("_") || f.matches(".*\\.(constprop|isra|part|cold)(\\.\\d+)?$"))) {
            return null;  // C, as async-profiler names it: __new_sem_wait_slow64.constprop.0
        }
        int slash = f.indexOf('/');
        if (slash > 0 && f.substring(0, slash).contains(".") && f.lastIndexOf('/') == slash) {
            f = f.substring(slash + 1);   // tiprobe's java.base/java.lang.String.compareTo
        } else {
            f = f.replace('/', '.');      // async-profiler's java/lang/String.compareTo
        }
        return f.contains(".") ? f : null;
    }

    static double distance(Map<String, Double> a, Map<String, Double> b) {
        Set<String> keys = new HashSet<>(a.keySet());
        keys.addAll(b.keySet());
        double sum = 0;
        for (String k : keys) sum += Math.abs(a.getOrDefault(k, 0.0) - b.getOrDefault(k, 0.0));
        return sum / 2;
    }
}
