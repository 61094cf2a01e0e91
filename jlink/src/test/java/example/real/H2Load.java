package example.real;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A real SQL engine under load: an in-memory H2 database and {@code threads} JDBC clients that
 * insert, query and update orders. Order ids roll over at 20,000, so the table stops growing after
 * a few seconds and the work per operation stays the same: throughput early and late compare. Prints "ready" once the load runs, then keeps going until the
 * file {@code <dir>/quit} appears or {@code seconds} pass (0: until quit), and prints
 * {@code ops <n> in <ms> ms}: the throughput a test compares with and without tiprobe. Every half
 * second it also prints {@code at <ms> ops <n> wall <epoch ms> cpu <ms> clients <ms>} (since the
 * start, the wall clock to line two processes up, the process's CPU time, and its clients'
 * threads' CPU time: the program's own work, without the JIT's or a profiler's threads), for
 * throughput and CPU per operation over time.
 *
 * <p>Usage: {@code H2Load <dir> <threads> <seconds>}.
 */
public class H2Load {
    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        int threads = Integer.parseInt(args[1]);
        long seconds = Long.parseLong(args[2]);
        String url = "jdbc:h2:mem:shop;DB_CLOSE_DELAY=-1";
        try (Connection setup = DriverManager.getConnection(url); Statement s = setup.createStatement()) {
            s.execute("CREATE TABLE orders(id BIGINT PRIMARY KEY, customer VARCHAR(40), total DECIMAL(12,2), state VARCHAR(10))");
            s.execute("CREATE INDEX by_customer ON orders(customer)");
        }
        AtomicLong ops = new AtomicLong();
        AtomicLong nextId = new AtomicLong();
        List<Thread> clients = new ArrayList<>();
        long began = System.nanoTime();
        long end = seconds == 0 ? Long.MAX_VALUE : began + seconds * 1_000_000_000L;
        for (int t = 0; t < threads; t++) {
            clients.add(Thread.ofPlatform().name("jdbc-client-" + t).start(() -> {
                try (Connection c = DriverManager.getConnection(url);
                     PreparedStatement insert = c.prepareStatement("MERGE INTO orders KEY(id) VALUES (?, ?, ?, 'new')");
                     PreparedStatement byCustomer = c.prepareStatement(
                             "SELECT COUNT(*), SUM(total) FROM orders WHERE customer = ? AND state = 'new'");
                     PreparedStatement ship = c.prepareStatement("UPDATE orders SET state = 'shipped' WHERE id = ?")) {
                    while (System.nanoTime() < end && !Files.exists(dir.resolve("quit"))) {
                        for (int i = 0; i < 100; i++) {
                            long id = nextId.incrementAndGet() % 20_000;
                            insert.setLong(1, id);
                            insert.setString(2, "c-" + (id % 97));
                            insert.setBigDecimal(3, java.math.BigDecimal.valueOf(id % 5000, 2));
                            insert.executeUpdate();
                            byCustomer.setString(1, "c-" + (id % 97));
                            try (ResultSet r = byCustomer.executeQuery()) {
                                r.next();
                            }
                            ship.setLong(1, id / 2);
                            ship.executeUpdate();
                            ops.incrementAndGet();
                        }
                    }
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            }));
        }
        System.out.println("ready");
        var process = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        var threadCpu = java.lang.management.ManagementFactory.getThreadMXBean();
        long[] clientCpu = new long[clients.size()];  // each client's last reading: an ended thread has none
        Thread.ofPlatform().daemon().name("h2-progress").start(() -> {
            try {
                while (true) {
                    Thread.sleep(500);
                    for (int i = 0; i < clientCpu.length; i++) clientCpu[i] = Math.max(clientCpu[i], threadCpu.getThreadCpuTime(clients.get(i).threadId()));
                    long clientsCpu = java.util.Arrays.stream(clientCpu).sum();
                    System.out.println("at " + (System.nanoTime() - began) / 1_000_000 + " ops " + ops.get() + " wall " + System.currentTimeMillis()
                            + " cpu " + process.getProcessCpuTime() / 1_000_000 + " clients " + clientsCpu / 1_000_000);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        for (Thread t : clients) t.join();
        System.out.println("ops " + ops.get() + " in " + (System.nanoTime() - began) / 1_000_000 + " ms");
    }
}
