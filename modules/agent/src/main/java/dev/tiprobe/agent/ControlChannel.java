package dev.tiprobe.agent;

import dev.tiprobe.recording.ControlSocket;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.UnaryOperator;

/**
 * The running session's ear: a {@code tiprobe-control} thread answering the tiprobe command over
 * the Unix-domain socket {@link ControlSocket} names, so that status, dump and stop reach the
 * session without loading the agent again (each load makes the JDK print a warning in a target
 * without -XX:+EnableDynamicAgentLoading). Open only while a session runs: after stop, neither the
 * thread nor the socket file is left.
 */
final class ControlChannel implements AutoCloseable {
    /** A command line longer than this is not tiprobe's. */
    private static final int MAX_REQUEST = 4096;

    private final Path socket;
    private final ServerSocketChannel server;
    private final UnaryOperator<String> answers;
    private final Thread thread;
    private volatile boolean closing;

    private ControlChannel(Path socket, ServerSocketChannel server, UnaryOperator<String> answers) {
        this.socket = socket;
        this.server = server;
        this.answers = answers;
        this.thread = Thread.ofPlatform().daemon().name("tiprobe-control").unstarted(this::serve);
    }

    /** Listens at {@code socket}; each request line goes to {@code answers}, whose answer goes back. */
    static ControlChannel open(Path socket, UnaryOperator<String> answers) throws IOException {
        ControlSocket.prepareDirectory(socket);
        Files.deleteIfExists(socket);  // left by a JVM that had this pid and died
        ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        try {
            server.bind(UnixDomainSocketAddress.of(socket));
        } catch (IOException | RuntimeException e) {
            server.close();
            throw e;
        }
        ControlChannel c = new ControlChannel(socket, server, answers);
        c.thread.start();
        return c;
    }

    private void serve() {
        while (!closing) {
            try (SocketChannel client = server.accept()) {
                String request = readLine(client);
                String answer;
                try {
                    answer = answers.apply(request);
                } catch (Throwable t) {
                    answer = "error: " + t;
                }
                client.write(ByteBuffer.wrap((answer + "\n").getBytes(StandardCharsets.UTF_8)));
            } catch (IOException e) {
                if (closing || !server.isOpen()) return;  // closed by stop, or at exit
            } catch (Throwable t) {
                return;  // never let the channel take the target down
            }
        }
    }

    private static String readLine(SocketChannel client) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(MAX_REQUEST);
        while (buffer.hasRemaining()) {
            int n = client.read(buffer);
            if (n < 0) break;
            int end = buffer.position();
            if (end > 0 && buffer.get(end - 1) == '\n') break;
        }
        return new String(buffer.array(), 0, buffer.position(), StandardCharsets.UTF_8).strip();
    }

    /**
     * Stops listening and removes the socket. Called from the control thread itself (a stop that
     * came through the channel), the answer still goes out: the thread ends after sending it.
     */
    @Override
    public void close() {
        closing = true;
        try {
            server.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        try {
            Files.deleteIfExists(socket);
        } catch (IOException ignored) {
            // a stale socket file is replaced by the next session
        }
        AgentThreads.end(thread, 2_000);
    }
}
