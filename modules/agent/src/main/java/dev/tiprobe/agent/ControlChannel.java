package dev.tiprobe.agent;

import dev.tiprobe.agent.jvm.AgentThreads;
import dev.tiprobe.recording.ControlSocket;
import dev.tiprobe.recording.Reply;

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
    /** Heap held back for answering when the application's heap is full: given back at the first OutOfMemoryError. */
    private static final int RESERVE_BYTES = 1 << 20;

    private final Path socket;
    private final ServerSocketChannel server;
    private final UnaryOperator<String> answers;
    private final Thread thread;
    private volatile boolean closing;
    /** Made once: reading a request allocates nothing. */
    private final ByteBuffer request = ByteBuffer.allocateDirect(MAX_REQUEST);
    /** Static: one channel listens at a time, and the session's keeper gives it back before stopping in a full heap. Guarded by the class. */
    private static byte[] reserve;
    /** Whether the reserve is to be held (from open until given back for good). Guarded by the class. */
    private static boolean holding;

    /** The heap held back for answering now, in bytes. */
    static synchronized long reservedBytes() {
        return reserve == null ? 0 : reserve.length;
    }

    private ControlChannel(Path socket, ServerSocketChannel server, UnaryOperator<String> answers) {
        this.socket = socket;
        this.server = server;
        this.answers = answers;
        this.thread = AgentThreads.daemon("tiprobe-control").unstarted(this::serve);
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
        synchronized (ControlChannel.class) {
            holding = true;
        }
        holdReserve();
        c.thread.start();
        return c;
    }

    /**
     * Answers one client at a time until closed. An {@link OutOfMemoryError} (the application's
     * heap full) ends neither the thread nor the session: the reserve goes back to the heap, the
     * client gets the error if it can be sent, and the next command is answered; a thread that
     * died here left a socket that accepted and never answered, and {@code status} waited forever.
     */
    private void serve() {
        while (!closing) {
            try (SocketChannel client = server.accept()) {
                answer(client);
            } catch (IOException e) {
                if (closing || !server.isOpen()) return;  // closed by stop, or at exit
            } catch (OutOfMemoryError e) {
                dropReserve();  // the heap is full: what was held back helps the next answer through
                pause();
            } catch (Throwable t) {
                pause();  // never let the channel take the target down, nor leave it deaf, nor spin
            }
        }
    }

    /** A fault that repeats (a heap that stays full) costs the target a look every 50 ms, not a core. */
    private static void pause() {
        try {
            Thread.sleep(50);
        } catch (Throwable interrupted) {
            // closing: the loop's condition says so
        }
    }

    private void answer(SocketChannel client) throws IOException {
        String answer;
        try {
            answer = answers.apply(readLine(client));
        } catch (OutOfMemoryError e) {
            dropReserve();
            answer = Reply.error("the target's heap is full (" + e.getMessage() + ")").encode();
        } catch (Throwable t) {
            answer = Reply.error(t.toString()).encode();
        }
        client.write(ByteBuffer.wrap((answer + "\n").getBytes(StandardCharsets.UTF_8)));
        holdReserve();  // again, once the heap has room
    }

    private static synchronized void holdReserve() {
        if (!holding || reserve != null) return;
        try {
            reserve = new byte[RESERVE_BYTES];
        } catch (OutOfMemoryError stillFull) {
            // next time
        }
    }

    /** Lets the reserve go for now: it is held again after the next answer. */
    private static synchronized void dropReserve() {
        reserve = null;
    }

    /** Gives the held-back heap to the application for good (at stop, or so that a stop in a full heap can finish). */
    static synchronized void giveBackReserve() {
        holding = false;
        reserve = null;
    }

    private String readLine(SocketChannel client) throws IOException {
        request.clear();
        while (request.hasRemaining()) {
            int n = client.read(request);
            if (n < 0) break;
            int end = request.position();
            if (end > 0 && request.get(end - 1) == '\n') break;
        }
        byte[] line = new byte[request.flip().remaining()];
        request.get(line);
        return new String(line, StandardCharsets.UTF_8).strip();
    }

    /**
     * Stops listening and removes the socket. Called from the control thread itself (a stop that
     * came through the channel), the answer still goes out: the thread ends after sending it.
     */
    @Override
    public void close() {
        closing = true;
        giveBackReserve();
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
