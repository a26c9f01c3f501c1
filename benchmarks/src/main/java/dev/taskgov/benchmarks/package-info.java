/** JMH benchmarks of the core's decisions; run with {@code java -jar benchmarks/target/benchmarks.jar}. */
package dev.taskgov.benchmarks;
