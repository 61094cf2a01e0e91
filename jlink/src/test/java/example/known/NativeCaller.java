package example.known;

import java.lang.foreign.Linker;

/**
 * A program that makes a restricted FFM call of its own, as the user's class path would, and says
 * what became of it: under {@code --illegal-native-access=deny} it must throw whatever an agent in
 * the JVM gave itself. Runs {@link Known#round()} first, for a tracer to count.
 * Prints {@code sum <n>}, then {@code the program's own restricted call: <outcome>}.
 */
public class NativeCaller {
    @SuppressWarnings("restricted")  // the point: a restricted call of the program's own
    public static void main(String[] args) {
        System.out.println("sum " + Known.round());
        String outcome;
        try {
            Linker.nativeLinker().defaultLookup().find("getpid").orElseThrow();
            Linker.nativeLinker().downcallHandle(java.lang.foreign.FunctionDescriptor.of(java.lang.foreign.ValueLayout.JAVA_INT));
            outcome = "allowed";
        } catch (IllegalCallerException e) {
            outcome = "IllegalCallerException";
        }
        System.out.println("the program's own restricted call: " + outcome);
    }
}
