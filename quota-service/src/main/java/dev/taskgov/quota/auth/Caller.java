package dev.taskgov.quota.auth;

import dev.taskgov.core.auth.Principal;
import jakarta.enterprise.context.RequestScoped;

/** The principal whose key signed the current request; set by the API once the signature is verified. */
@RequestScoped
public class Caller {

    /** Who changes state outside a request (start-up republishing, the first admin key). */
    public static final String SYSTEM = "system";

    private Principal principal;

    public void set(Principal principal) {
        this.principal = principal;
    }

    /** The verified principal; null outside a verified request. */
    public Principal principal() {
        return principal;
    }

    /** The name recorded as author or audit principal. */
    public String name() {
        return principal == null ? SYSTEM : principal.name();
    }

    /** The verified principal, or null when no request is active (start-up work, direct calls in tests). */
    public static Principal principalOf(Caller caller) {
        try {
            return caller.principal();
        } catch (jakarta.enterprise.context.ContextNotActiveException e) {
            return null;
        }
    }

    /** The caller's name, or {@link #SYSTEM} when no request is active (start-up work, direct calls in tests). */
    public static String nameOf(Caller caller) {
        try {
            return caller.name();
        } catch (jakarta.enterprise.context.ContextNotActiveException e) {
            return SYSTEM;
        }
    }
}
