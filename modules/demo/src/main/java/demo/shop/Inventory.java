package demo.shop;

import java.util.HashMap;
import java.util.Map;

/** Stock per SKU; reserving more than is left throws. */
final class Inventory {
    private final Map<String, Integer> stock = new HashMap<>();

    Inventory() {
        for (String sku : Shop.SKUS) stock.put(sku, 40);
    }

    static final class OutOfStock extends Exception {
        private static final long serialVersionUID = 1L;

        OutOfStock(String sku, int wanted, int left) {
            super(sku + ": wanted " + wanted + ", " + left + " left");
        }
    }

    synchronized void reserve(String sku, int qty) throws OutOfStock {
        int left = stock.get(sku);
        if (left < qty) throw new OutOfStock(sku, qty, left);
        stock.put(sku, left - qty);
    }

    synchronized void restock(String sku, int qty) {
        stock.merge(sku, qty, Integer::sum);
    }
}
