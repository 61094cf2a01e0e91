package demo.shop;

/** The receipt of an order: its lines formatted, and a check number made of them, as a till would. */
final class Receipt {
    private Receipt() {}

    /** The receipt's check number: a hash of its text. */
    static int print(Shop.Order order, long cents) {
        StringBuilder text = new StringBuilder();
        text.append(String.format("%-12s %-10s%n", "customer", order.customer()));
        for (int unit = 1; unit <= order.qty(); unit++) {
            text.append(String.format("%-12s %3d x %8.2f%n", order.sku(), unit, cents / 100.0 / order.qty()));
        }
        text.append(String.format("%-12s %14.2f %s%n", "total", cents / 100.0, order.tier()));
        return text.toString().hashCode();
    }
}
