-- Access control and audit (issue 16). Access keys bound to a principal and its roles; the secret is stored
-- encrypted with the master key (AES-GCM; the key lives outside the database, see docs/security.md), because
-- verifying an AWS SigV4 signature needs the secret itself, not a hash of it.
create table access_key (
    access_key_id     varchar(64)  primary key,
    principal         varchar(128) not null,
    -- space-separated roles: admin, viewer, team:<name>
    roles             varchar(1024) not null,
    secret_ciphertext text         not null,
    description       varchar(256),
    created_at        timestamp(6) with time zone not null,
    created_by        varchar(128) not null,
    revoked_at        timestamp(6) with time zone,
    revoked_by        varchar(128)
);

create index access_key_principal on access_key (principal);

-- Who did what, from every service (quota-service writes its own in the changing transaction and stores the
-- other services' records from the taskgov.audit topic; event_id makes both idempotent).
create table audit_event (
    event_id     varchar(64)  primary key,
    at           timestamp(6) with time zone not null,
    service      varchar(64)  not null,
    principal    varchar(128) not null,
    operation    varchar(128) not null,
    target       varchar(512),
    outcome      varchar(512) not null,
    before_json  text,
    after_json   text
);

create index audit_event_at on audit_event (at);
create index audit_event_principal on audit_event (principal, at);

-- Every version records its author (the principal whose key signed the change).
alter table compute_quota_version add column author varchar(128);
alter table cluster_scheduler_config_version add column author varchar(128);
