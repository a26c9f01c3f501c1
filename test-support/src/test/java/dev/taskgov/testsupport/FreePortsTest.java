package dev.taskgov.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.List;

import org.junit.jupiter.api.RepeatedTest;

class FreePortsTest {

    /** Compose once gave two services one host port ("port is already allocated"): each of a batch must differ. */
    @RepeatedTest(20)
    void everyPortOfABatchIsDistinctAndCanBeBound() throws IOException {
        List<Integer> ports = FreePorts.distinct(16);
        assertThat(new HashSet<>(ports)).hasSize(16);
        for (int port : ports) {
            try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                assertThat(s.getLocalPort()).isEqualTo(port);
            }
        }
    }
}
