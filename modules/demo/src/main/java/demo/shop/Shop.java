package demo.shop;

import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A small shop: four clerks take orders, price them, reserve stock (which sometimes runs out),
 * and now and then load a discount rule in a loader of its own that is dropped again. With an
 * argument, the clerks keep taking orders for that many seconds, one every few milliseconds each:
 * a program to attach to ({@code tiprobe watch}); a second sets that pause in milliseconds (0: the
 * clerks never rest, a program to profile).
 */
public final class Shop {
    enum Tier { REGULAR, GOLD }

    static final String[] CUSTOMERS = {"ada", "brian", "grace", "linus"};
    static final String[] SKUS = {"tea-green", "tea-black", "mug", "kettle"};

    private final Inventory inventory = new Inventory();
    private final AtomicLong revenueCents = new AtomicLong();
    private final AtomicInteger soldOut = new AtomicInteger();
    /** The pause between a clerk's orders while the shop is kept open. */
    private final long pauseMillis;

    Shop(long pauseMillis) {
        this.pauseMillis = pauseMillis;
    }

    public static void main(String[] args) throws Exception {
        long openUntil = args.length > 0 ? System.nanoTime() + (long) (Double.parseDouble(args[0]) * 1e9) : 0;
        Shop shop = new Shop(args.length > 1 ? Long.parseLong(args[1]) : 5);
        if (args.length > 0) System.out.println("open for " + args[0] + " s");
        List<Thread> clerks = new ArrayList<>();
        for (int c = 0; c < 4; c++) {
            int clerk = c;
            clerks.add(Thread.ofPlatform().name("clerk-" + c).start(() -> shop.work(clerk, openUntil)));
        }
        for (Thread t : clerks) t.join();
        System.out.printf("revenue %.2f, sold out %d times, discount rules loaded %d%n",
                shop.revenueCents.get() / 100.0, shop.soldOut.get(), Discounts.loaded.get());
    }

    /** 250 orders, or orders until {@code openUntil} (a nanoTime; 0: none), one every {@code pauseMillis}. */
    void work(int clerk, long openUntil) {
        for (int i = 0; i < 250 || openUntil != 0 && System.nanoTime() < openUntil; i++) {
            if (openUntil != 0 && pauseMillis > 0) pause(pauseMillis);
            String customer = CUSTOMERS[(clerk + i) % CUSTOMERS.length];
            String sku = SKUS[(i * 7 + clerk) % SKUS.length];
            int qty = 1 + (i % 3);
            Tier tier = i % 5 == 0 ? Tier.GOLD : Tier.REGULAR;
            try {
                revenueCents.addAndGet(checkout(new Order(customer, sku, qty, tier)));
            } catch (Inventory.OutOfStock e) {
                soldOut.incrementAndGet();
                inventory.restock(sku, 20);
            }
        }
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    long checkout(Order order) throws Inventory.OutOfStock {
        inventory.reserve(order.sku(), order.qty());
        long cents = Pricing.total(order.sku(), order.qty(), order.tier());
        if (order.qty() == 3 && order.tier() == Tier.GOLD) cents = Discounts.apply(cents);
        Receipt.print(order, cents);
        return cents;
    }

    record Order(String customer, String sku, int qty, Tier tier) {}

    /** Discount rules, each loaded in a class loader of its own and dropped after use. */
    static final class Discounts {
        static final AtomicInteger loaded = new AtomicInteger();

        static long apply(long cents) {
            try (InputStream in = Shop.class.getResourceAsStream("Rule.class")) {
                byte[] bytes = in.readAllBytes();
                Class<?> rule = new ClassLoader(null) {
                    Class<?> define() {
                        return defineClass("demo.shop.Rule", bytes, 0, bytes.length);
                    }
                }.define();
                loaded.incrementAndGet();
                return (long) rule.getMethod("apply", long.class).invoke(null, cents);
            } catch (Exception e) {
                return cents;
            }
        }
    }
}
