package demo.shop;

/** Prices in cents. */
final class Pricing {
    private Pricing() {}

    static long unitPrice(String sku) {
        return switch (sku) {
            case "tea-green", "tea-black" -> 450;
            case "mug" -> 1200;
            default -> 3900;
        };
    }

    static long total(String sku, int qty, Shop.Tier tier) {
        long cents = unitPrice(sku) * qty;
        return tier == Shop.Tier.GOLD ? cents - cents / 20 : cents;
    }
}
