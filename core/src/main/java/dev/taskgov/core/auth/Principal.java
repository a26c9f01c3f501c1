package dev.taskgov.core.auth;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Who sent a request (the owner of the access key that signed it) and the roles it holds. The access rules
 * (docs/security.md) are decided here, once, for every service.
 */
public record Principal(String name, Set<Role> roles) {

    public Principal {
        roles = Set.copyOf(roles);
    }

    public static Principal of(String name, List<String> roles) {
        return new Principal(name, roles.stream().map(Role::parse).collect(Collectors.toUnmodifiableSet()));
    }

    public boolean isAdmin() {
        return roles.contains(Role.ADMIN);
    }

    /** May change quotas, scheduler configs and credentials. */
    public boolean mayAdminister() {
        return isAdmin();
    }

    /** May read every team's quota, workloads and the cluster-wide views (topology, all workloads, audit). */
    public boolean mayReadAll() {
        return isAdmin() || roles.contains(Role.VIEWER);
    }

    /** May read this team's quota, queue and workloads. */
    public boolean mayRead(String team) {
        return mayReadAll() || memberOf(team);
    }

    /** May submit, finish and dry-run workloads for this team: its members, and an admin (trusted with everything). */
    public boolean maySubmitFor(String team) {
        return memberOf(team) || isAdmin();
    }

    public boolean memberOf(String team) {
        return team != null && roles.contains(new Role.Team(team));
    }

    /** The teams this principal belongs to. */
    public Set<String> teams() {
        return roles.stream().filter(r -> r instanceof Role.Team).map(r -> ((Role.Team) r).name())
                .collect(Collectors.toUnmodifiableSet());
    }

    /** The roles as they are written ({@code admin}, {@code team:a}), sorted. */
    public List<String> roleNames() {
        return roles.stream().map(Role::toString).sorted().toList();
    }
}
