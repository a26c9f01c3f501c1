-- Members of the current SageMaker API that taskgov now accepts:
--   SchedulerConfig.FairShare / IdleResourceSharing (Enabled | Disabled) and
--   ComputeQuotaConfig.ResourceSharingConfig.AbsoluteBorrowLimits.
-- The Describe documents carry them; the columns hold the effective values for queries and reports.

alter table cluster_scheduler_config add column fair_share varchar(16);
alter table cluster_scheduler_config add column idle_resource_sharing varchar(16);

-- Configs stored before this version always wrote FairShare out; they had no idle resource sharing.
update cluster_scheduler_config
   set document_json = jsonb_set(document_json::jsonb, '{SchedulerConfig,IdleResourceSharing}', '"Disabled"')::text;
update cluster_scheduler_config_version
   set document_json = jsonb_set(document_json::jsonb, '{SchedulerConfig,IdleResourceSharing}', '"Disabled"')::text;
update cluster_scheduler_config
   set fair_share = document_json::jsonb #>> '{SchedulerConfig,FairShare}',
       idle_resource_sharing = 'Disabled';

alter table cluster_scheduler_config alter column fair_share set not null;
alter table cluster_scheduler_config alter column idle_resource_sharing set not null;

-- the effective absolute borrow limits per instance type in stored units, like nominal_json ('{}' = none)
alter table compute_quota add column absolute_borrow_limits_json text not null default '{}';
