-- The audit trail is a hash chain per service (core's AuditChain): each record has its place in its service's chain
-- (seq = 1, 2, ...) and carries the hash of the record before it; audit_chain_head holds each chain's last seq and
-- hash, and its row lock orders concurrent writers of one chain (several quota-service instances, the audit topic's
-- consumers). `taskgov audit verify` walks every chain and names its first broken link (docs/security.md).
alter table audit_event add column chain     varchar(64);
alter table audit_event add column seq       bigint;
alter table audit_event add column prev_hash varchar(64);
alter table audit_event add column hash      varchar(64);
create unique index audit_event_chain_seq on audit_event (chain, seq);
-- Records written before the chain existed stay unchained (verify counts them); every new record is chained.
alter table audit_event add constraint audit_event_chained
    check (chain is not null and seq is not null and prev_hash is not null and hash is not null) not valid;

create table audit_chain_head (
    chain varchar(64) primary key,
    seq   bigint      not null,
    hash  varchar(64) not null
);

-- Append-only for every role the triggers bind (all but one that disables them, i.e. a superuser or the table's
-- owner, whom only the chain itself can catch): no record is edited or deleted, a head only moves forward by one.
create function audit_event_append_only() returns trigger language plpgsql as $$
begin
    raise exception 'audit_event is append-only: % refused', tg_op using errcode = 'insufficient_privilege';
end;
$$;
create trigger audit_event_no_update_or_delete before update or delete on audit_event
    for each row execute function audit_event_append_only();
create trigger audit_event_no_truncate before truncate on audit_event
    for each statement execute function audit_event_append_only();

create function audit_chain_head_forward_only() returns trigger language plpgsql as $$
begin
    if tg_op = 'UPDATE' and new.chain = old.chain and new.seq = old.seq + 1 then
        return new;
    end if;
    raise exception 'audit_chain_head only moves forward one record at a time: % refused', tg_op
        using errcode = 'insufficient_privilege';
end;
$$;
create trigger audit_chain_head_forward_only before update or delete on audit_chain_head
    for each row execute function audit_chain_head_forward_only();
create trigger audit_chain_head_no_truncate before truncate on audit_chain_head
    for each statement execute function audit_event_append_only();
