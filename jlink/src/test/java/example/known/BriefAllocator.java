package example.known;

import java.util.ArrayList;
import java.util.List;

/**
 * A program that allocates for a moment and ends, a tenth of a second or so after the JVM's start:
 * names in {@link #makeNames}, grids in {@link #makeGrids}. Prints what it made.
 */
public final class BriefAllocator {
    private BriefAllocator() {}

    public static void main(String[] args) {
        List<Object> kept = new ArrayList<>();
        long made = makeNames(kept) + makeGrids(kept);
        System.out.println("made " + made + " objects");
    }

    static long makeNames(List<Object> kept) {
        long made = 0;
        for (int i = 0; i < 100_000; i++, made++) {
            kept.add("name-" + i);
            if (kept.size() > 1_000) kept.clear();
        }
        return made;
    }

    static long makeGrids(List<Object> kept) {
        long made = 0;
        for (int i = 0; i < 200; i++, made++) {
            kept.add(new int[64][64]);
            if (kept.size() > 100) kept.clear();
        }
        return made;
    }
}
