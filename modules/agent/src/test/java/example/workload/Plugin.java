package example.workload;

/** Loaded again by a throwaway loader and as a hidden class in {@link InProcess}. */
public class Plugin {
    public static int run(int x) {
        return x + 1;
    }
}
