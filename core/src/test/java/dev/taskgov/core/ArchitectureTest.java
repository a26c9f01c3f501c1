package dev.taskgov.core;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * core holds the decisions and nothing else: it must stay free of frameworks and infrastructure
 * (Quarkus, Jakarta EE, JPA, Kafka, fabric8, SmallRye, MicroProfile) so that the simulator, the
 * services and the benchmarks all run the very same code. Jackson is allowed (JSON is data).
 */
class ArchitectureTest {

    private static JavaClasses coreClasses;

    @BeforeAll
    static void importCore() {
        coreClasses = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.taskgov.core");
    }

    @ParameterizedTest(name = "core does not depend on {0}")
    @ValueSource(strings = {
            "io.quarkus..",
            "jakarta..",
            "javax.persistence..",
            "org.apache.kafka..",
            "io.fabric8..",
            "io.smallrye..",
            "org.eclipse.microprofile.."})
    void coreDoesNotDependOn(String forbiddenPackage) {
        ArchRule rule = noClasses().that().resideInAPackage("dev.taskgov.core..")
                .should().dependOnClassesThat().resideInAPackage(forbiddenPackage)
                .because("core is pure Java; frameworks belong to the services");
        rule.check(coreClasses);
    }

    /**
     * Each package of core may be understood on its own terms: the scheduler uses the planner and
     * the quota ledger, the planner uses the ledger, and nothing points back up (a cycle would make
     * every package of it one unit to read and change).
     */
    @Test
    void coreHasNoPackageCycles() {
        slices().matching("dev.taskgov.core.(**)").should().beFreeOfCycles()
                .because("core's packages are layered: a cycle makes them one unit")
                .check(coreClasses);
    }
}
