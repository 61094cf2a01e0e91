package example.real;

import groovy.lang.GroovyShell;
import groovy.lang.Script;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A script engine that generates classes: Groovy compiles {@code rounds} scripts, each in memory
 * only (a GroovyClassLoader defines {@code ScriptN} and its closure classes; no class file exists
 * anywhere), and calls each script's {@code total} method 100 times; the method passes a closure.
 * Prints "ready" after the first script, then waits for {@code <dir>/go} before each further script
 * (a test can attach in between), printing {@code total <n>} for each.
 *
 * <p>Usage: {@code GroovyScripts <dir> <rounds>}.
 */
public class GroovyScripts {
    static final String SOURCE = """
            def total(int n) {
                def squares = (1..n).collect { it * it }
                return squares.sum()
            }
            """;

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        int rounds = Integer.parseInt(args[1]);
        GroovyShell shell = new GroovyShell();
        for (int r = 0; r < rounds; r++) {
            if (r == 1) System.out.println("ready");
            if (r >= 1) {
                while (!Files.deleteIfExists(dir.resolve("go"))) Thread.sleep(10);
            }
            Script script = shell.parse(SOURCE, "Script" + r + ".groovy");
            long sum = 0;
            for (int i = 0; i < 100; i++) sum += ((Number) script.invokeMethod("total", new Object[] {10})).longValue();
            System.out.println("total " + sum);
            Files.writeString(dir.resolve("done"), "done");
        }
    }
}
