package example.known;

/**
 * A request handler whose time goes to one callee: {@code handle} parses the request (fast), looks
 * its key up ({@code lookup} sleeps 15 ms) and renders the value (fast), again and again for the
 * given seconds. Prints {@code ready}, then {@code handled} at the end.
 */
public final class SlowCallee {
    static int parse(String request) {
        return request.length();
    }

    static String lookup(int key) throws InterruptedException {
        Thread.sleep(15);
        return "value-" + key;
    }

    static String render(String value) {
        return "<" + value + ">";
    }

    static String handle(String request) throws InterruptedException {
        int key = parse(request);
        String value = lookup(key);
        return render(value);
    }

    public static void main(String[] args) throws Exception {
        long end = System.nanoTime() + Long.parseLong(args[0]) * 1_000_000_000L;
        System.out.println("ready");
        long rendered = 0;
        for (long n = 0; System.nanoTime() < end; n++) rendered += handle("request-" + n).length();
        System.out.println(rendered > 0 ? "handled" : "nothing handled");
    }
}
