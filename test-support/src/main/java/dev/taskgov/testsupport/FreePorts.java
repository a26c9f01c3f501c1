package dev.taskgov.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

/** Free loopback ports for the brokers and services that tests start. */
public final class FreePorts {

    private FreePorts() {
    }

    /**
     * {@code count} distinct ports free on the loopback address now. Each socket stays open until all are chosen: a
     * port closed at once may be handed out again by the next bind, and two listeners given one port fail to start.
     */
    public static List<Integer> distinct(int count) {
        List<ServerSocket> held = new ArrayList<>();
        try {
            List<Integer> ports = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                held.add(s);
                ports.add(s.getLocalPort());
            }
            return List.copyOf(ports);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot find " + count + " free loopback ports", e);
        } finally {
            for (ServerSocket s : held) {
                try {
                    s.close();
                } catch (IOException ignored) {
                    // a listening socket that never accepted holds nothing to lose
                }
            }
        }
    }
}
