package example.real;

import com.fasterxml.jackson.databind.ObjectMapper;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A worker thread whose loop runs throughout and only calls: each turn builds an order, writes it
 * to JSON and reads it back with Jackson (about 3 µs), so the loop's own code is a sliver of its
 * time and every turn is a call. The shape a class change would strand: the loop, left in its old
 * method version, would go round interpreted for the rest of the run.
 *
 * <p>Usage: {@code JsonWorker <seconds>}; prints {@code ready}, then each second
 * {@code second <n> <turns a second of the worker's CPU>}, by the worker thread's own CPU clock,
 * which a busy machine's time slicing leaves alone.
 */
public final class JsonWorker {
    private JsonWorker() {}

    public static final class Item {
        public String sku;
        public int qty;
        public double price;

        public Item() {}

        Item(String sku, int qty, double price) {
            this.sku = sku;
            this.qty = qty;
            this.price = price;
        }
    }

    public static final class Order {
        public long id;
        public String customer;
        public List<Item> items = new ArrayList<>();
        public String note;
    }

    private static final String[] CUSTOMERS = {"ada", "grace", "linus", "brian", "barbara"};
    private static volatile long sink;
    private static volatile long turns;

    static Order order(long id, Random random) {
        Order o = new Order();
        o.id = id;
        o.customer = CUSTOMERS[(int) (id % CUSTOMERS.length)];
        int n = 3 + random.nextInt(6);
        for (int i = 0; i < n; i++) o.items.add(new Item("sku-" + random.nextInt(100), 1 + random.nextInt(5), 0.5 + random.nextInt(1000) / 10.0));
        o.note = "order number " + id;
        return o;
    }

    static double total(Order o) {
        double t = 0;
        for (Item i : o.items) t += i.qty * i.price;
        return t;
    }

    /** One turn's work: an order to JSON and back. */
    static long roundTrip(ObjectMapper mapper, Order o) throws Exception {
        String json = mapper.writeValueAsString(o);
        Order back = mapper.readValue(json, Order.class);
        return json.length() + back.items.size() + (long) total(back);
    }

    public static void main(String[] args) throws Exception {
        long end = System.nanoTime() + (long) (Double.parseDouble(args[0]) * 1e9);
        ObjectMapper mapper = new ObjectMapper();
        Thread worker = new Thread(() -> {
            Random random = new Random(1);
            long id = 0;
            try {
                while (true) {
                    sink += roundTrip(mapper, order(id++, random));
                    turns++;
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, "json-worker");
        worker.setDaemon(true);
        worker.start();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        System.out.println("ready");
        long lastTurns = turns;
        long lastCpu = threads.getThreadCpuTime(worker.threadId());
        for (int second = 1; System.nanoTime() < end; second++) {
            Thread.sleep(1000);
            long nowTurns = turns;
            long nowCpu = threads.getThreadCpuTime(worker.threadId());
            System.out.printf("second %d %.0f%n", second, (nowTurns - lastTurns) * 1e9 / Math.max(1, nowCpu - lastCpu));
            lastTurns = nowTurns;
            lastCpu = nowCpu;
        }
    }
}
