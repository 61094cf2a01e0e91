package dev.tiprobe.agent;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The agent's packages as layers, read from its sources: the sink ({@code sink}) and the JVM's
 * threads and flags ({@code jvm}) at the bottom, engines above them, the session and the entry
 * points on top. No package reaches one that reaches it back, and the sink knows no engine.
 */
class PackageLayersTest {
    private static final String ROOT = "dev.tiprobe.agent";
    private static final Pattern PACKAGE = Pattern.compile("^package ([\\w.]+);", Pattern.MULTILINE);
    /** A class of the agent named by its package, in an import or in code. */
    private static final Pattern REFERENCE = Pattern.compile("\\bdev\\.tiprobe\\.agent((?:\\.[a-z]\\w*)*)\\.[A-Z]");

    @Test
    void noPackageOfTheAgentReachesOneThatReachesItBack() throws IOException {
        Map<String, Set<String>> uses = packageUses();
        assertTrue(uses.containsKey(ROOT + ".sink") && uses.containsKey(ROOT + ".tracing"), uses.toString());
        for (String p : uses.keySet()) {
            assertTrue(!reachable(uses, p).contains(p), p + " reaches itself: " + uses);
        }
    }

    @Test
    void theSinkKnowsNoEngine() throws IOException {
        Map<String, Set<String>> uses = packageUses();
        assertEquals(Set.of(ROOT + ".jvm"), uses.get(ROOT + ".sink"));
        assertEquals(Set.of(), uses.getOrDefault(ROOT + ".jvm", Set.of()));
    }

    /** Each package of the agent's main code and the other agent packages its code names. */
    private static Map<String, Set<String>> packageUses() throws IOException {
        Map<String, Set<String>> uses = new TreeMap<>();
        List<Path> sources;
        try (Stream<Path> files = Files.walk(Path.of("src/main/java/dev/tiprobe/agent"))) {
            sources = files.filter(f -> f.toString().endsWith(".java")).toList();
        }
        for (Path f : sources) {
            String code = withoutCommentsAndStrings(Files.readString(f));
            Matcher declared = PACKAGE.matcher(code);
            if (!declared.find()) continue;
            Set<String> used = uses.computeIfAbsent(declared.group(1), p -> new TreeSet<>());
            Matcher m = REFERENCE.matcher(code);
            while (m.find()) {
                String other = ROOT + m.group(1);
                if (!other.equals(declared.group(1))) used.add(other);
            }
        }
        return uses;
    }

    private static String withoutCommentsAndStrings(String code) {
        return code.replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("//[^\\n]*", "").replaceAll("\"(\\\\.|[^\"\\\\])*\"", "\"\"");
    }

    private static Set<String> reachable(Map<String, Set<String>> uses, String from) {
        Set<String> seen = new HashSet<>();
        Deque<String> next = new ArrayDeque<>(uses.getOrDefault(from, Set.of()));
        while (!next.isEmpty()) {
            String p = next.pop();
            if (seen.add(p)) next.addAll(uses.getOrDefault(p, Set.of()));
        }
        return seen;
    }
}
