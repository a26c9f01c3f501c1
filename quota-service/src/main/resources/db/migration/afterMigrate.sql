-- Flyway runs this after every migrate, as the owner of the tables (quarkus.flyway.username), so that every table,
-- a new one too, gives quota-service's app role (quarkus.datasource.username) what it needs and no more:
-- audit rows are only ever added, an access key's id, principal and roles never change once made, and the
-- migrations' history is the owner's. Skipped when the service migrates as its app role (one login for both, as a
-- database its operator provides may have): an owner cannot be kept from its own tables.
do $$
declare
    app text := '${appRole}';
begin
    if app = current_user then
        raise notice 'quota-service migrates as its app role %: table rights left as they are', app;
        return;
    end if;
    if not exists (select 1 from pg_roles where rolname = app) then
        raise exception 'quarkus.datasource.username: database role % does not exist (the migration role % grants it its rights)',
            app, current_user;
    end if;
    execute format('grant usage on schema public to %I', app);
    execute format('grant select, insert, update, delete on all tables in schema public to %I', app);
    execute format('grant usage, select on all sequences in schema public to %I', app);
    execute format('revoke all on table flyway_schema_history from %I', app);
    execute format('revoke update, delete, truncate on table audit_event from %I', app);
    -- a chain's head only moves forward (its trigger); it is never removed
    execute format('revoke delete, truncate on table audit_chain_head from %I', app);
    execute format('revoke update, delete, truncate on table access_key from %I', app);
    execute format('grant update (secret_ciphertext, revoked_at, revoked_by) on table access_key to %I', app);
end $$;
