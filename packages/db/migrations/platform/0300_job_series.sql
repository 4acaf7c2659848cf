-- Recurring jobs (docs/control-plane.md, "Recurring jobs"): a series made on a job repeats it by an
-- RFC 5545 rule. Its occurrences within the horizon become real jobs (same customer, address and
-- windows); each made one is remembered here once, so a retried or concurrent pass never makes it twice.

CREATE TABLE job_series (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  -- The job the series was made from (one series per job).
  source_job_id uuid NOT NULL,
  -- The RRULE line (without DTSTART: the source job's start is the series' start).
  rule varchar(500) NOT NULL,
  title varchar(200) NOT NULL,
  horizon_months smallint NOT NULL CHECK (horizon_months BETWEEN 1 AND 36),
  starts_at timestamptz NOT NULL,
  duration_minutes integer NOT NULL CHECK (duration_minutes BETWEEN 1 AND 10080),
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'paused', 'ended')),
  -- Occurrences after this instant follow the rule (set when made and when the rule changes: a
  -- change applies only to occurrences not yet generated).
  rule_since timestamptz NOT NULL DEFAULT now(),
  -- Why the next occurrence waits (the month's job limit), null when nothing waits.
  waiting_reason text CHECK (waiting_reason IN ('job_limit', 'source_missing')),
  waiting_date date,
  created_by uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (tenant_id, source_job_id),
  UNIQUE (tenant_id, id),
  FOREIGN KEY (tenant_id, source_job_id) REFERENCES jobs (tenant_id, id) ON DELETE CASCADE
);
-- The generator's scan across tenants.
CREATE INDEX job_series_active ON job_series (status) WHERE status = 'active';
SELECT platform_enable_tenant_rls('job_series');

CREATE TABLE job_series_occurrences (
  tenant_id uuid NOT NULL,
  series_id uuid NOT NULL,
  occurrence_date date NOT NULL,
  job_id uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (series_id, occurrence_date),
  UNIQUE (tenant_id, job_id),
  FOREIGN KEY (tenant_id, series_id) REFERENCES job_series (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, job_id) REFERENCES jobs (tenant_id, id) ON DELETE CASCADE
);
SELECT platform_enable_tenant_rls('job_series_occurrences');
