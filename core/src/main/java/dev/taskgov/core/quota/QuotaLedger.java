package dev.taskgov.core.quota;

import dev.taskgov.core.model.Amounts;
import dev.taskgov.core.model.ComputeQuotas;
import dev.taskgov.core.model.PendingReason;
import dev.taskgov.core.model.SchedulerConfig;
import dev.taskgov.core.model.TeamQuota;
import dev.taskgov.core.resources.ResourceKey;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.core.topology.Node;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Quota accounting for one cohort (all teams of a cluster), per instance type and resource.
 *
 * <p>For a team: nominal N, lendable L, guaranteed G = N - L, borrowing limit B, usage U. The
 * cohort pool holds what active teams lend: capacity = sum of L, usage = sum of max(0, U - G). A
 * team may take a request R when, for each resource R asks for, U + R <= N + B and the pool has
 * room for the part of U + R above G. So a DontLend team's quota stays its own, and a lending
 * team's idle quota is what others borrow. With idle resource sharing ({@code IdleResourceSharing:
 * Enabled}) the pool also holds the cluster's capacity that no active quota allocates.
 *
 * <p>Mutable and incremental. What-ifs change it in place and put it back when their handle is
 * closed ({@link #simulateAddition}, {@link #simulateRemoval}); {@link #copy()} gives an independent
 * ledger for a caller that must leave this one untouched.
 */
public final class QuotaLedger {

    /** By team name, in name order: the order {@link #quotas()} gives them in. */
    private final Map<String, TeamQuota> quotas = new TreeMap<>();
    /**
     * Each team's books by a hash of its name, found with one look-up: a quota check reads the team's quota, limits and
     * usage, and a walk of a deep queue checks its waiting workloads again after nearly every admission.
     */
    private final Map<String, Books> books = new HashMap<>();

    /** N, G = N - L and B of one team and instance type. */
    private record Limits(Resources nominal, Resources guaranteed, Resources borrowingLimit) {
        static final Limits NONE = new Limits(Resources.ZERO, Resources.ZERO, Resources.ZERO);
    }

    /**
     * What the ledger keeps of one team: its quota (null without one; a team may still hold what it took under one
     * since removed), the limits derived from it per instance type (computed once per quota change), and what it holds
     * per instance type.
     */
    private static final class Books {
        TeamQuota quota;
        Map<String, Limits> limits = Map.of();
        final Map<String, Resources> usage = new HashMap<>();

        boolean active() {
            return quota != null && quota.active();
        }

        Limits limits(String type) {
            Limits l = limits.get(type);
            return l == null ? Limits.NONE : l;
        }

        Resources usage(String type) {
            return usage.getOrDefault(type, Resources.ZERO);
        }
    }

    private static final Books NO_BOOKS = new Books();

    /** The team's books, or empty ones (no quota, nothing held) when it has none; not to be changed. */
    private Books books(String team) {
        Books b = books.get(team);
        return b == null ? NO_BOOKS : b;
    }

    private Books booksFor(String team) {
        return books.computeIfAbsent(team, t -> new Books());
    }

    private Limits limits(String team, String type) {
        return books(team).limits(type);
    }
    private final Map<String, Resources> poolCapacity = new HashMap<>();
    private final Map<String, Resources> poolUsage = new HashMap<>();
    /** Sum over instance types of the cohort's lendable, per resource: the denominator of shares. */
    private Resources lendableTotal = Resources.ZERO;
    /** The cluster's capacity per instance type; counts only while {@link #idleResourceSharing}. */
    private final Map<String, Resources> clusterCapacity = new HashMap<>();
    private boolean idleResourceSharing;
    /**
     * Bumped on every change of usage or quotas but a what-if's: what {@link #holders} answered at an older count, with
     * no what-if open, is stale. A what-if's change is undone exactly when it closes, so once none is open the books are
     * what they were at the same count (a preemption search's what-ifs would otherwise have the holders counted again
     * after every search: most of the 9,817 counts of a 10k drain).
     */
    private long changes;
    /** What-ifs not yet closed ({@link #simulateAddition}, {@link #simulateRemoval}): the books then differ from the count's. */
    private int openWhatIfs;
    /**
     * {@link #holders} per instance type and resource at {@link #holdersAt} changes with no what-if open: every workload
     * a full cohort blocks is told the same holders, and a walk of a deep queue asks for them once per workload it parks
     * (sorting every team's usage each time was two fifths of a drain of distinct workloads).
     */
    private final Map<String, Map<ResourceKey, String>> holdersMemo = new HashMap<>();
    private long holdersAt = -1;

    public QuotaLedger() {
    }

    /**
     * The books of a cluster with nothing used yet: these quotas, the ready nodes' capacity per
     * instance type, and the config's idle resource sharing (the scheduler keeps the same numbers
     * incrementally; a view built from records starts here).
     */
    public static QuotaLedger of(SchedulerConfig config, Collection<TeamQuota> quotas, Collection<Node> nodes) {
        QuotaLedger ledger = new QuotaLedger();
        quotas.forEach(ledger::putQuota);
        ComputeQuotas.clusterCapacity(nodes).forEach(ledger::setClusterCapacity);
        ledger.setIdleResourceSharing(config.idleResourceSharing());
        return ledger;
    }

    /** An independent copy. */
    public QuotaLedger copy() {
        QuotaLedger c = new QuotaLedger();
        c.quotas.putAll(quotas);
        books.forEach((team, b) -> {
            Books copy = c.booksFor(team);
            copy.quota = b.quota;
            copy.limits = b.limits;
            copy.usage.putAll(b.usage);
        });
        c.poolCapacity.putAll(poolCapacity);
        c.poolUsage.putAll(poolUsage);
        c.lendableTotal = lendableTotal;
        c.clusterCapacity.putAll(clusterCapacity);
        c.idleResourceSharing = idleResourceSharing;
        return c;
    }

    /** Adds or replaces a team's quota; usage is kept. */
    public void putQuota(TeamQuota quota) {
        putQuotas(List.of(quota));
    }

    /**
     * {@link #putQuota} for each, the pool added up once at the end rather than after each: a restore puts every
     * team's quota, and adding up the pool after each made that quadratic in the teams (a thousand teams: a million
     * quota visits per rebuilt partition).
     */
    public void putQuotas(Collection<TeamQuota> all) {
        for (TeamQuota quota : all) {
            quotas.put(quota.team(), quota);
            Map<String, Limits> m = new HashMap<>();
            for (String type : quota.instanceTypes()) {
                m.put(type, new Limits(quota.nominal(type), quota.guaranteed(type), quota.borrowingLimit(type)));
            }
            Books b = booksFor(quota.team());
            b.quota = quota;
            b.limits = Map.copyOf(m);
            changes++;
        }
        rebuildPool();
    }

    /** Removes a team's quota; its usage is kept (and no longer counts in the pool). */
    public void removeQuota(String team) {
        quotas.remove(team);
        Books b = books.get(team);
        if (b != null) {
            b.quota = null;
            b.limits = Map.of();
        }
        changes++;
        rebuildPool();
    }

    /** {@code IdleResourceSharing}: whether capacity no quota allocates is lent to the cohort. */
    public void setIdleResourceSharing(boolean enabled) {
        if (enabled != idleResourceSharing) {
            idleResourceSharing = enabled;
            rebuildPool();
        }
    }

    public Resources clusterCapacity(String instanceType) {
        return clusterCapacity.getOrDefault(instanceType, Resources.ZERO);
    }

    /** The cluster's capacity of an instance type (ready nodes' allocatable), for idle resource sharing. */
    public void setClusterCapacity(String instanceType, Resources capacity) {
        Resources before = capacity.isZero() ? clusterCapacity.remove(instanceType) : clusterCapacity.put(instanceType, capacity);
        if (idleResourceSharing && !capacity.equals(before == null ? Resources.ZERO : before)) {
            rebuildPool();
        }
    }

    private void rebuildPool() {
        poolCapacity.clear();
        poolUsage.clear();
        lendableTotal = Resources.ZERO;
        Map<String, Resources> allocated = new HashMap<>();
        for (TeamQuota q : quotas.values()) {
            if (!q.active()) continue;
            for (String type : q.instanceTypes()) {
                poolCapacity.merge(type, q.lendable(type), Resources::plus);
                lendableTotal = lendableTotal.plus(q.lendable(type));
                allocated.merge(type, q.nominal(type), Resources::plus);
            }
            books(q.team()).usage.forEach((type, used) ->
                    poolUsage.merge(type, used.minus(q.guaranteed(type)), Resources::plus));
        }
        if (idleResourceSharing) {
            clusterCapacity.forEach((type, capacity) -> {
                Resources unallocated = capacity.minus(allocated.getOrDefault(type, Resources.ZERO));
                poolCapacity.merge(type, unallocated, Resources::plus);
                lendableTotal = lendableTotal.plus(unallocated);
            });
        }
    }

    public TeamQuota quota(String team) {
        return books(team).quota;
    }

    public Collection<TeamQuota> quotas() {
        return Collections.unmodifiableCollection(quotas.values());
    }

    /** What a team holds of an instance type. */
    public Resources usage(String team, String instanceType) {
        return books(team).usage(instanceType);
    }

    /** What a team holds, per instance type. */
    public Map<String, Resources> usage(String team) {
        return Collections.unmodifiableMap(books(team).usage);
    }

    public Resources poolCapacity(String instanceType) {
        return poolCapacity.getOrDefault(instanceType, Resources.ZERO);
    }

    public Resources poolUsage(String instanceType) {
        return poolUsage.getOrDefault(instanceType, Resources.ZERO);
    }

    /** Records that a team now holds {@code requests} more. */
    public void add(String team, Map<String, Resources> requests) {
        change(team, requests, true);
    }

    /** Records that a team gave {@code requests} back. */
    public void remove(String team, Map<String, Resources> requests) {
        change(team, requests, false);
    }

    private void change(String team, Map<String, Resources> requests, boolean add) {
        changes++;
        book(team, requests, add);
    }

    /** Moves a team's usage and the pool's by {@code requests}. */
    private void book(String team, Map<String, Resources> requests, boolean add) {
        Books b = booksFor(team);
        for (Map.Entry<String, Resources> e : requests.entrySet()) {
            String type = e.getKey();
            Resources before = b.usage(type);
            Resources after = add ? before.plus(e.getValue()) : before.minus(e.getValue());
            b.usage.put(type, after);
            if (b.active()) {
                Resources g = b.limits(type).guaranteed();
                Resources pool = poolUsage.getOrDefault(type, Resources.ZERO);
                poolUsage.put(type, pool.minus(before.minus(g)).plus(after.minus(g)));
            }
        }
    }

    /** As if the team held {@code requests} more, until the handle is closed. */
    public WhatIf simulateAddition(String team, Map<String, Resources> requests) {
        return whatIf(Map.of(team, requests), true);
    }

    /** As if the team held {@code requests} less, until the handle is closed. */
    public WhatIf simulateRemoval(String team, Map<String, Resources> requests) {
        return whatIf(Map.of(team, requests), false);
    }

    /** As if each team held its {@code requests} more (by team, then instance type), until the handle is closed. */
    public WhatIf simulateAddition(Map<String, Map<String, Resources>> requestsByTeam) {
        return whatIf(requestsByTeam, true);
    }

    /** As if each team held its {@code requests} less (by team, then instance type), until the handle is closed. */
    public WhatIf simulateRemoval(Map<String, Map<String, Resources>> requestsByTeam) {
        return whatIf(requestsByTeam, false);
    }

    /** Books the change now and its opposite when the handle closes, without counting either ({@link #changes}). */
    private WhatIf whatIf(Map<String, Map<String, Resources>> requestsByTeam, boolean add) {
        openWhatIfs++;
        requestsByTeam.forEach((team, requests) -> book(team, requests, add));
        return WhatIf.once(() -> {
            requestsByTeam.forEach((team, requests) -> book(team, requests, !add));
            openWhatIfs--;
        });
    }

    /**
     * Whether the team may take {@code requests} now.
     *
     * @param allowBorrow false to require that the team stays within its nominal quota
     */
    public QuotaCheck check(String team, Map<String, Resources> requests, boolean allowBorrow) {
        return check(team, requests, allowBorrow, true);
    }

    /** {@link #check} without building a message: for what-if planning. */
    public boolean fits(String team, Map<String, Resources> requests, boolean allowBorrow) {
        return check(team, requests, allowBorrow, false).fits();
    }

    private static final QuotaCheck DOES_NOT_FIT = new QuotaCheck(false, PendingReason.QuotaExceeded, "does not fit");

    /** {@link #check} of a request of one instance type, {@code amount} of {@code type}, given without a map to walk. */
    public QuotaCheck check(String team, String type, Resources amount, boolean allowBorrow) {
        Books b = books(team);
        QuotaCheck none = noQuota(team, b.quota);
        if (none != null) return none;
        QuotaCheck c = checkType(b, team, type, amount, allowBorrow, true);
        return c == null ? QuotaCheck.FITS : c;
    }

    /** Why a team with this quota (or none) may take nothing, or null when its quota is active. */
    private static QuotaCheck noQuota(String team, TeamQuota q) {
        if (q == null) {
            return new QuotaCheck(false, PendingReason.NoQuota, "team " + team + " has no compute quota");
        }
        if (!q.active()) {
            return new QuotaCheck(false, PendingReason.NoQuota, "the compute quota of team " + team + " is disabled");
        }
        return null;
    }

    private QuotaCheck check(String team, Map<String, Resources> requests, boolean allowBorrow, boolean explain) {
        Books b = books(team);
        QuotaCheck none = noQuota(team, b.quota);
        if (none != null) return none;
        for (Map.Entry<String, Resources> e : requests.entrySet()) {
            QuotaCheck c = checkType(b, team, e.getKey(), e.getValue(), allowBorrow, explain);
            if (c != null) return c;
        }
        return QuotaCheck.FITS;
    }

    /**
     * Whether the team would fit {@code requests} if the workloads of {@code removedByTeam} (by team, then instance
     * type) gave back what they hold: {@link #fits} after {@link #simulateRemoval} of them, reckoned without changing
     * the books (a what-if that leaves them as they are costs no undo, and keeps what {@link #holders} remembered).
     */
    public boolean fitsWithout(String team, Map<String, Resources> requests, boolean allowBorrow,
                               Map<String, Map<String, Resources>> removedByTeam) {
        Books b = books(team);
        if (!b.active()) return false;
        for (Map.Entry<String, Resources> e : requests.entrySet()) {
            String type = e.getKey();
            Resources r = e.getValue();
            // per resource the request names, in longs: a bound over every borrowing team's holdings runs once per
            // preemption attempt, and amounts built per holder cost more than the comparison they feed
            List<ResourceKey> keys = r.keys();
            long[] used = new long[keys.size()];
            long[] poolUsed = new long[keys.size()];
            Resources u = b.usage(type);
            Resources pool = poolUsage(type);
            for (int i = 0; i < used.length; i++) {
                used[i] = u.get(keys.get(i));
                poolUsed[i] = pool.get(keys.get(i));
            }
            // as change() books each removal, in the same order
            for (Map.Entry<String, Map<String, Resources>> removed : removedByTeam.entrySet()) {
                Resources gone = removed.getValue().get(type);
                if (gone == null) continue;
                String holder = removed.getKey();
                boolean own = holder.equals(team);
                Books hb = books(holder);
                Resources before = hb.usage(type);
                Resources g = hb.active() ? hb.limits(type).guaranteed() : null;
                for (int i = 0; i < used.length; i++) {
                    ResourceKey res = keys.get(i);
                    long had = before.get(res);
                    long left = Math.max(0, had - gone.get(res));
                    if (own) used[i] = left;
                    if (g != null) {
                        long guaranteed = g.get(res);
                        long lent = Math.max(0, poolUsed[i] - Math.max(0, had - guaranteed));
                        poolUsed[i] = sat(lent + Math.max(0, left - guaranteed));
                    }
                }
            }
            Limits l = b.limits(type);
            Resources poolCap = poolCapacity(type);
            for (int i = 0; i < used.length; i++) {
                ResourceKey res = keys.get(i);
                long need = r.get(res);
                if (need != 0 && shortOf(l, poolCap, res, need, used[i], poolUsed[i], allowBorrow) != FITS_ONE) return false;
            }
        }
        return true;
    }

    /**
     * The check of one instance type with the team's books ({@code b}) and the pool's usage as they are now: null when
     * {@code r} fits, else why not ({@link #DOES_NOT_FIT} unless {@code explain}).
     */
    private QuotaCheck checkType(Books b, String team, String type, Resources r, boolean allowBorrow, boolean explain) {
        Limits l = b.limits(type);
        Resources u = b.usage(type);
        Resources poolUsed = poolUsage(type);
        Resources n = l.nominal();
        Resources poolCap = poolCapacity(type);
        for (ResourceKey res : r.keys()) {
            long need = r.get(res);
            if (need == 0) continue;
            long used = u.get(res);
            int over = shortOf(l, poolCap, res, need, used, poolUsed.get(res), allowBorrow);
            if (over == FITS_ONE) continue;
            if (!explain) return DOES_NOT_FIT;
            long poolIdle = Math.max(0, poolCap.get(res) - poolUsed.get(res));
            boolean overCeiling = (over & OVER_CEILING) != 0;
            boolean overPool = (over & OVER_POOL) != 0;
            PendingReason reason = overCeiling && sat(used + need) > n.get(res) && l.borrowingLimit().get(res) > 0 && allowBorrow
                    ? PendingReason.BorrowLimitExceeded : PendingReason.QuotaExceeded;
            long borrowed = Math.max(0, used - n.get(res));
            long mayBorrow = allowBorrow ? Math.max(0, l.borrowingLimit().get(res) - borrowed) : 0;
            return QuotaCheck.shortBy(reason, new Shortfall(team, type, res, need, Math.max(0, n.get(res) - used), mayBorrow,
                    poolIdle, overPool ? holders(type, res) : ""));
        }
        return null;
    }

    /** {@link #shortOf}: the request fits; else the bits of what it would exceed. */
    private static final int FITS_ONE = 0;
    private static final int OVER_CEILING = 1;
    private static final int OVER_POOL = 2;

    /**
     * Whether {@code need} more of {@code res} fits a team with limits {@code l} that uses {@code used} of it, the pool
     * of capacity {@code poolCap} using {@code poolUsed}: {@link #FITS_ONE}, or {@link #OVER_CEILING} (beyond nominal
     * plus what it may borrow) and {@link #OVER_POOL} (beyond the pool's idle, counting only what goes above the
     * team's guaranteed share).
     */
    private static int shortOf(Limits l, Resources poolCap, ResourceKey res, long need, long used, long poolUsed,
                               boolean allowBorrow) {
        long after = sat(used + need);
        long guaranteed = l.guaranteed().get(res);
        long poolDelta = Math.max(0, after - guaranteed) - Math.max(0, used - guaranteed);
        long poolIdle = Math.max(0, poolCap.get(res) - poolUsed);
        long ceiling = sat(l.nominal().get(res) + (allowBorrow ? l.borrowingLimit().get(res) : 0));
        return (after > ceiling ? OVER_CEILING : 0) | (poolDelta > poolIdle ? OVER_POOL : 0);
    }

    /** The team's nominal quota of {@code type} (zero without an active quota). */
    public Resources nominal(String team, String type) {
        Books b = books(team);
        return b.active() ? b.limits(type).nominal() : Resources.ZERO;
    }

    /** How much of {@code type} the team may borrow above its nominal quota (zero without an active quota). */
    public Resources borrowingLimit(String team, String type) {
        Books b = books(team);
        return b.active() ? b.limits(type).borrowingLimit() : Resources.ZERO;
    }

    /** How many teams {@link #holders} names at most: the largest users, the rest as a count. */
    private static final int HOLDERS_NAMED = 3;

    /**
     * Who holds what a request lacks when the cohort has too little idle: the teams that use {@code res} of
     * {@code type}, the largest first, each with the part of it that is borrowed (above its nominal), so that a person
     * waiting knows whose work must end or be reclaimed ("; in use: team-b 8 (3 borrowed), team-a 2 (within its
     * nominal)"). Empty when no one uses it. (A request over its own team's limits is told those limits instead.) Also
     * what a workload the nodes have no room for is told: the teams whose work holds that instance type's nodes.
     */
    public String holders(String type, ResourceKey res) {
        if (openWhatIfs > 0) return holdersNow(type, res); // not the books of any count
        if (holdersAt != changes) {
            holdersMemo.clear();
            holdersAt = changes;
        }
        // looked up and put without lambdas: a capturing one is made anew by every call, once per check of a full pool
        Map<ResourceKey, String> ofType = holdersMemo.get(type);
        if (ofType == null) holdersMemo.put(type, ofType = new HashMap<>());
        String named = ofType.get(res);
        if (named == null) ofType.put(res, named = holdersNow(type, res));
        return named;
    }

    /**
     * The largest {@value #HOLDERS_NAMED} users in one pass, without sorting every team: a walk of a deep queue asks
     * again after every change of usage, so this runs once per admission while the pool is full.
     */
    private String holdersNow(String type, ResourceKey res) {
        String[] teams = new String[HOLDERS_NAMED];
        long[] used = new long[HOLDERS_NAMED];
        int holders = 0;
        for (Map.Entry<String, Books> e : books.entrySet()) {
            Resources u = e.getValue().usage.get(type);
            long amount = u == null ? 0 : u.get(res);
            if (amount <= 0) continue;
            holders++;
            String team = e.getKey();
            // Insert into the top list, ordered by use (largest first), then by team name.
            int at = Math.min(holders, HOLDERS_NAMED) - 1;
            if (at == HOLDERS_NAMED - 1 && holders > HOLDERS_NAMED && !before(amount, team, used[at], teams[at])) continue;
            while (at > 0 && before(amount, team, used[at - 1], teams[at - 1])) {
                teams[at] = teams[at - 1];
                used[at] = used[at - 1];
                at--;
            }
            teams[at] = team;
            used[at] = amount;
        }
        if (holders == 0) return "";
        StringBuilder out = new StringBuilder("; in use: ");
        for (int i = 0; i < Math.min(HOLDERS_NAMED, holders); i++) {
            long borrowed = Math.max(0, used[i] - limits(teams[i], type).nominal().get(res));
            if (i > 0) out.append(", ");
            out.append(teams[i]).append(' ').append(Amounts.number(res, used[i]));
            out.append(borrowed > 0 ? " (" + Amounts.number(res, borrowed) + " borrowed)" : " (within its nominal)");
        }
        if (holders > HOLDERS_NAMED) out.append(" and ").append(holders - HOLDERS_NAMED).append(" more teams");
        return out.toString();
    }

    /** The holders' order: more in use first, then by team name. */
    private static boolean before(long used, String team, long otherUsed, String otherTeam) {
        return used != otherUsed ? used > otherUsed : team.compareTo(otherTeam) < 0;
    }

    /** True when, for every instance type and resource asked for, usage + request stays within nominal. */
    public boolean withinNominal(String team, Map<String, Resources> requests) {
        Books b = books(team);
        TeamQuota q = b.quota;
        if (q == null) return false;
        for (Map.Entry<String, Resources> e : requests.entrySet()) {
            Resources after = b.usage(e.getKey()).plus(e.getValue());
            Resources n = q.nominal(e.getKey());
            for (ResourceKey res : e.getValue().keys()) {
                if (e.getValue().get(res) > 0 && after.get(res) > n.get(res)) return false;
            }
        }
        return true;
    }

    /** True when the team uses more than its nominal of any resource of any of these instance types. */
    public boolean isBorrowing(String team, Collection<String> instanceTypes) {
        Books b = books(team);
        TeamQuota q = b.quota;
        for (String type : instanceTypes) {
            Resources n = q == null ? Resources.ZERO : q.nominal(type);
            if (!b.usage(type).fitsIn(n)) return true;
        }
        return false;
    }

    /**
     * Per instance type, what the team's quota lacks for {@code requests} now (nothing when only
     * placement lacks): what exceeds both the room below its nominal plus borrowing limit and its
     * guaranteed part plus the cohort's idle pool.
     */
    public Map<String, Resources> lacking(String team, Map<String, Resources> requests) {
        TeamQuota q = quota(team);
        Map<String, Resources> out = new TreeMap<>();
        if (q == null) return out;
        requests.forEach((type, r) -> {
            Resources u = usage(team, type);
            Resources room = q.ceiling(type).minus(u);
            Resources poolIdle = poolCapacity(type).minus(poolUsage(type));
            Resources viaPool = q.guaranteed(type).minus(u).plus(poolIdle);
            Resources missing = Resources.ZERO;
            for (ResourceKey n : r.keys()) {
                long avail = Math.min(room.get(n), viaPool.get(n));
                missing = missing.with(n, Math.max(0, r.get(n) - avail));
            }
            if (!missing.isZero()) out.put(type, missing);
        });
        return out;
    }

    /** What taking {@code requests} puts above the team's nominal, per instance type (zero parts kept out). */
    public Map<String, Resources> borrowedBy(String team, Map<String, Resources> requests) {
        TeamQuota q = quota(team);
        Map<String, Resources> out = new TreeMap<>();
        requests.forEach((type, r) -> {
            Resources n = q == null ? Resources.ZERO : q.nominal(type);
            Resources u = usage(team, type);
            Resources b = u.plus(r).minus(n).minus(u.minus(n));
            if (!b.isZero()) out.put(type, b);
        });
        return out;
    }

    /** The team's weighted share now. */
    public Share share(String team) {
        return shareWith(team, Map.of());
    }

    /**
     * The team's weighted share if it also held {@code extra}: max over resources (summed over
     * instance types) of borrowed / cohort lendable, divided by the weight; resources nobody lends
     * are ignored; weight 0 is infinite while borrowing.
     */
    public Share shareWith(String team, Map<String, Resources> extra) {
        Books books = books(team);
        TeamQuota q = books.quota;
        Resources borrowed = Resources.ZERO;
        Map<String, Resources> u = books.usage;
        java.util.Set<String> types = new java.util.HashSet<>(u.keySet());
        types.addAll(extra.keySet());
        for (String type : types) {
            Resources n = q == null ? Resources.ZERO : q.nominal(type);
            Resources used = u.getOrDefault(type, Resources.ZERO).plus(extra.getOrDefault(type, Resources.ZERO));
            borrowed = borrowed.plus(used.minus(n));
        }
        int weight = q == null ? 0 : q.fairShareWeight();
        Share best = Share.ZERO;
        for (ResourceKey res : borrowed.keys()) {
            long lend = lendableTotal.get(res);
            long b = borrowed.get(res);
            if (lend == 0 || b == 0) continue;
            if (weight == 0) return Share.INFINITE;
            best = Share.max(best, new Share(b, mulSat(lend, weight)));
        }
        return best;
    }

    private static long mulSat(long a, long b) {
        try {
            return Math.multiplyExact(a, b);
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }

    private static long sat(long v) {
        return v < 0 ? Long.MAX_VALUE : v;
    }
}
