package example.real;

import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A real HTTP server under load: Jetty 12 on a loopback port, whose handler spends its CPU in
 * {@link PriceHandler#price} (SHA-256 rounds), and a bounded client on 127.0.0.1 only: {@code clients}
 * threads, each sending one request at a time, until {@code <dir>/quit} appears or {@code seconds}
 * pass (at most 120 in any case). Prints "ready" once requests flow, then every half second
 * {@code at <ms since ready> ops <requests so far>} (as {@link H2Load} does, for the scripts in
 * scripts/compare), and {@code requests <n>} at the end.
 *
 * <p>Usage: {@code JettyLoad <dir> <clients> <seconds>}.
 */
public class JettyLoad {
    /** The application's code: where a CPU profile of this server should point. */
    public static final class PriceHandler extends Handler.Abstract {
        static String price(String sku) throws Exception {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            byte[] v = sku.getBytes(StandardCharsets.UTF_8);
            for (int i = 0; i < 20_000; i++) v = sha.digest(v);
            return HexFormat.of().formatHex(v, 0, 4);
        }

        @Override
        public boolean handle(Request request, Response response, Callback callback) throws Exception {
            String sku = Request.getParameters(request).getValue("sku");
            response.getHeaders().put("Content-Type", "text/plain");
            response.write(true, java.nio.ByteBuffer.wrap(price(sku == null ? "none" : sku).getBytes(StandardCharsets.UTF_8)), callback);
            return true;
        }
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        int clients = Integer.parseInt(args[1]);
        long seconds = Long.parseLong(args[2]);
        Server server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        server.setHandler(new PriceHandler());
        server.start();
        int port = connector.getLocalPort();
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        AtomicLong done = new AtomicLong();
        long end = System.nanoTime() + Math.min(seconds == 0 ? 120 : seconds, 120) * 1_000_000_000L;
        List<Thread> threads = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            int client = c;
            threads.add(Thread.ofPlatform().name("http-client-" + c).start(() -> {
                long n = 0;
                while (System.nanoTime() < end && !Files.exists(dir.resolve("quit"))) {
                    try {
                        HttpRequest req = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/price?sku=s-" + client + "-" + (n++ % 50))).build();
                        HttpResponse<String> r = http.send(req, HttpResponse.BodyHandlers.ofString());
                        if (r.statusCode() == 200) done.incrementAndGet();
                    } catch (Exception e) {
                        return;
                    }
                }
            }));
        }
        while (done.get() == 0) Thread.sleep(5);
        System.out.println("ready");
        long began = System.nanoTime();
        Thread.ofPlatform().daemon().name("jetty-progress").start(() -> {  // as H2Load's: what scripts/compare reads
            try {
                while (true) {
                    Thread.sleep(500);
                    System.out.println("at " + (System.nanoTime() - began) / 1_000_000 + " ops " + done.get());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        for (Thread t : threads) t.join();
        System.out.println("requests " + done.get());
        server.stop();
    }
}
