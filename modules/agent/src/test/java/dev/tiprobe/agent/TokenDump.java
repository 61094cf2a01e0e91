package dev.tiprobe.agent;

import dev.tiprobe.agent.registry.Registry;
import dev.tiprobe.ids.IdMap;
import dev.tiprobe.jvmti.Jvmti;
import dev.tiprobe.testing.GeneratedClasses;

import java.util.ArrayList;
import java.util.List;

/** Prints the token text of every method of a few classes: run twice by {@link ChurnTest}. */
public final class TokenDump {
    private TokenDump() {}

    public static void main(String[] args) {
        Registry registry = Registry.start(Jvmti.get());
        Class<?> generated = new GeneratedClasses.Loader().define("gen.Deterministic");
        List<String> lines = new ArrayList<>();
        for (Class<?> c : List.of(TokenDump.class, Registry.class, String.class, java.util.HashMap.class, generated)) {
            IdMap.ClassEntry e = registry.register(c);
            lines.add(e.token().text());
            for (long id : Jvmti.get().classMethods(c)) lines.add(registry.resolve(id).token().text());
        }
        lines.sort(null);
        lines.forEach(System.out::println);
        registry.close();
    }
}
