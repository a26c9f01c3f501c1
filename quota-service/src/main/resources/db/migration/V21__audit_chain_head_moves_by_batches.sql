-- quota-service appends the audit topic's records in batches (one transaction per poll, AuditChains): a chain's head
-- moves once per batch, by as many records as the batch appended to that chain. It still only moves forward, and only
-- onto the chain's records: every seq from the old head's to the new one is a stored record of the chain (audit_event
-- is append-only, and (chain, seq) unique), and the new head's hash is its last record's.
create or replace function audit_chain_head_forward_only() returns trigger language plpgsql as $$
begin
    if tg_op = 'UPDATE' and new.chain = old.chain and new.seq > old.seq
            and (select count(*) from audit_event where chain = new.chain and seq > old.seq and seq <= new.seq)
                = new.seq - old.seq
            and exists (select 1 from audit_event where chain = new.chain and seq = new.seq and hash = new.hash) then
        return new;
    end if;
    raise exception 'audit_chain_head only moves forward, onto records of its chain: % refused', tg_op
        using errcode = 'insufficient_privilege';
end;
$$;
