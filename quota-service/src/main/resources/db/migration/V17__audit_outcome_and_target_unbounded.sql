-- An audit record keeps the whole outcome and target: a refusal's message may name every governed cluster
-- (ResourceNotFound for an ungoverned ClusterArn), and a target may carry a caller's path (a Kueue queue name),
-- so neither has a useful bound; a record too long for its column would be lost, with the change it describes.
alter table audit_event alter column outcome type text;
alter table audit_event alter column target type text;
