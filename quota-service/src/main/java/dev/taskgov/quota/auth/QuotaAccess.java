package dev.taskgov.quota.auth;

import dev.taskgov.core.auth.Principal;
import dev.taskgov.service.support.auth.AuthFailure;
import dev.taskgov.service.support.auth.SignedRequest;

import java.util.Set;

/**
 * Who may call which SageMaker operation (docs/security.md): an admin everything; a viewer the Describe and List calls; a
 * team key only {@code DescribeComputeQuota} and {@code ListComputeQuotas}, and only for its own team's quota (the
 * operations check the team of what they return: {@link #mayReadQuotaOf}). Nothing else changes anything.
 */
public final class QuotaAccess {

    /** SageMaker answers AccessDeniedException with HTTP 400 (its common errors). */
    public static final int DENIED_STATUS = 400;

    private static final Set<String> TEAM_READS = Set.of("DescribeComputeQuota", "ListComputeQuotas");

    private QuotaAccess() {
    }

    /** Refuses the call outright when no role of the principal allows the operation. */
    public static void check(Principal principal, String operation) {
        if (principal.isAdmin()) {
            return;
        }
        boolean read = SignedRequest.readsOnly(operation);
        if (read && principal.mayReadAll()) {
            return;
        }
        if (TEAM_READS.contains(operation) && !principal.teams().isEmpty()) {
            return;
        }
        throw denied(principal, operation, read
                ? "only an admin or a viewer may call it (a team key reads only its own compute quota)"
                : "only an admin may change quotas and scheduler configs");
    }

    /** Whether the principal may see this team's compute quota. */
    public static boolean mayReadQuotaOf(Principal principal, String team) {
        return principal == null || principal.mayRead(team);
    }

    public static AuthFailure denied(Principal principal, String operation, String why) {
        return AuthFailure.accessDenied(DENIED_STATUS, "User: " + principal.name() + " " + principal.roleNames()
                + " is not authorized to perform: sagemaker:" + operation + ": " + why);
    }
}
