package dev.taskgov.quota.api;

import java.util.Map;

/** A group of operations, keyed by operation name ({@code CreateComputeQuota}, ...). */
public interface OperationRegistry {
    Map<String, Operation> operations();
}
