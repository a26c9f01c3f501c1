package dev.taskgov.cli;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The wrapper's class path, {@code taskgov-cli-direct.jar} (this module's package, the Quarkus build's jars in one: see
 * the shade execution in pom.xml), holds what the build's own class path holds: every class and resource of every jar of
 * {@code quarkus-app/app} and {@code quarkus-app/lib}, byte for byte, and every service provider they declare. A command
 * the training does not run (the Kubernetes client, the Kafka client) finds there whatever it found in the jars.
 */
class DirectStartClassPathIT {

    private static final Path BUILD = Path.of("target/quarkus-app").toAbsolutePath();
    private static final String SERVICES = "META-INF/services/";
    /** Left out on purpose: per-jar metadata that means nothing, or something wrong, in a merged jar. */
    private static final Set<String> PER_JAR = Set.of("META-INF/MANIFEST.MF", "META-INF/INDEX.LIST", "module-info.class");

    @Test
    void holdsEveryClassResourceAndServiceProviderOfTheBuildsJars() throws IOException {
        Map<String, List<String>> providers = new HashMap<>();
        int entries = 0;
        try (JarFile direct = new JarFile(BUILD.resolve("taskgov-cli-direct.jar").toFile())) {
            assertThat(direct.getManifest().getMainAttributes().getValue("Multi-Release")).isEqualTo("true");
            for (Path jar : buildJars()) {
                try (JarFile original = new JarFile(jar.toFile())) {
                    for (Enumeration<JarEntry> e = original.entries(); e.hasMoreElements(); ) {
                        JarEntry entry = e.nextElement();
                        String name = entry.getName();
                        if (entry.isDirectory() || perJar(name)) continue;
                        if (name.startsWith(SERVICES)) {
                            providers.computeIfAbsent(name, n -> new ArrayList<>()).addAll(providerNames(original, entry));
                            continue;
                        }
                        JarEntry merged = direct.getJarEntry(name);
                        assertThat(merged).as("%s of %s", name, jar.getFileName()).isNotNull();
                        if (!name.startsWith("META-INF/")) { // licences and notices: the first of several same-named files
                            assertThat(bytes(direct, merged)).as("%s of %s", name, jar.getFileName())
                                    .isEqualTo(bytes(original, entry));
                        }
                        entries++;
                    }
                }
            }
            for (Map.Entry<String, List<String>> service : providers.entrySet()) {
                JarEntry merged = direct.getJarEntry(service.getKey());
                assertThat(merged).as(service.getKey()).isNotNull();
                assertThat(providerNames(direct, merged)).as(service.getKey()).containsAll(service.getValue());
            }
            // The JDK takes the first platform logger finder listed: the CLI's, not the JBoss LogManager's.
            assertThat(providerNames(direct, direct.getJarEntry(SERVICES + "java.lang.System$LoggerFinder")))
                    .first().isEqualTo(CliLoggerFinder.class.getName());
        }
        assertThat(entries).as("entries compared").isGreaterThan(30_000);
        assertThat(providers).as("service files merged")
                .containsKeys(SERVICES + "io.fabric8.kubernetes.client.http.HttpClient$Factory",
                        SERVICES + "software.amazon.awssdk.http.SdkHttpService");
    }

    private static List<Path> buildJars() throws IOException {
        List<Path> jars = new ArrayList<>();
        for (String dir : List.of("app", "lib/main", "lib/boot")) {
            try (Stream<Path> files = Files.list(BUILD.resolve(dir))) {
                files.filter(p -> p.toString().endsWith(".jar")).sorted().forEach(jars::add);
            }
        }
        assertThat(jars).hasSizeGreaterThan(100);
        return jars;
    }

    private static boolean perJar(String name) {
        String base = name.replaceFirst("^META-INF/versions/\\d+/", "");
        return PER_JAR.contains(base) || name.matches("META-INF/[^/]+\\.(SF|DSA|RSA)");
    }

    private static byte[] bytes(JarFile jar, JarEntry entry) throws IOException {
        try (InputStream in = jar.getInputStream(entry)) {
            return in.readAllBytes();
        }
    }

    /** A service file's provider class names: one a line, comments and blanks left out. */
    private static List<String> providerNames(JarFile jar, JarEntry entry) throws IOException {
        return Arrays.stream(new String(bytes(jar, entry), StandardCharsets.UTF_8).split("\n"))
                .map(line -> line.replaceFirst("#.*", "").strip())
                .filter(line -> !line.isEmpty())
                .toList();
    }
}
