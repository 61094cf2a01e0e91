package example.known;

import java.security.MessageDigest;
import java.util.concurrent.Executors;

/**
 * 1,000 virtual threads that each hash a buffer with SHA-256 ({@link #hash}: the CPU) and then
 * sleep 10 ms, over and over, for the seconds given. A cpu profile should put most of the CPU in
 * {@link #hash}; a sampler that walks platform threads sees only the carriers'
 * {@code VirtualThread.mount}. Prints {@code ready} once the threads run, then {@code hashed <n>}.
 */
public class VirtualHashing {
    static byte[] hash(MessageDigest sha, byte[] data, int rounds) {
        byte[] out = data;
        for (int i = 0; i < rounds; i++) out = sha.digest(out.length < 1024 ? data : out);
        return out;
    }

    public static void main(String[] args) throws Exception {
        long end = System.nanoTime() + (long) (Double.parseDouble(args[0]) * 1e9);
        java.util.concurrent.atomic.AtomicLong hashed = new java.util.concurrent.atomic.AtomicLong();
        try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int t = 0; t < 1000; t++) {
                executor.submit(() -> {
                    MessageDigest sha = MessageDigest.getInstance("SHA-256");
                    byte[] data = new byte[4096];
                    while (System.nanoTime() < end) {
                        data[0] ^= hash(sha, data, 20)[0];
                        hashed.incrementAndGet();
                        Thread.sleep(10);
                    }
                    return null;
                });
            }
            System.out.println("ready");
        }
        System.out.println("hashed " + hashed.get());
    }
}
