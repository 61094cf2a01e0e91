package example.known;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.ArrayList;
import java.util.List;

/**
 * async-profiler's own lock test, as a program: four threads send datagrams through one shared
 * {@code DatagramChannel}, whose {@code send} takes the channel's write lock, a {@code
 * ReentrantLock}; a fifth thread drains them. Usage: {@code DatagramSends <seconds>}; prints
 * {@code ready} once sending, {@code done <packets>} at the end.
 */
public class DatagramSends {
    public static void main(String[] args) throws Exception {
        long seconds = Long.parseLong(args[0]);
        try (DatagramChannel receiver = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
             DatagramChannel sender = DatagramChannel.open()) {
            InetSocketAddress to = (InetSocketAddress) receiver.getLocalAddress();
            List<Thread> threads = new ArrayList<>();
            long[] sent = new long[4];
            for (int i = 0; i < 4; i++) {
                int me = i;
                threads.add(Thread.ofPlatform().name("sender-" + i).start(() -> {
                    ByteBuffer packet = ByteBuffer.allocateDirect(1024);
                    try {
                        while (!Thread.currentThread().isInterrupted()) {
                            packet.clear();
                            sender.send(packet, to);
                            sent[me]++;
                        }
                    } catch (Exception closed) {
                        // done
                    }
                }));
            }
            Thread.ofPlatform().daemon().name("receiver").start(() -> {
                ByteBuffer in = ByteBuffer.allocateDirect(2048);
                try {
                    while (true) {
                        in.clear();
                        receiver.receive(in);
                    }
                } catch (Exception closed) {
                    // done
                }
            });
            System.out.println("ready");
            Thread.sleep(seconds * 1000);
            for (Thread t : threads) t.interrupt();
            for (Thread t : threads) t.join();
            long all = 0;
            for (long n : sent) all += n;
            System.out.println("done " + all);
        }
    }
}
