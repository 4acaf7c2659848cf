-- The customer's appointment link (docs/portal.md, "Appointment page"): the {{portal_link}} of a
-- job's messages opens /portal/appointment/<token>. A random token of which only the SHA-256 is
-- kept, scoped to one job, expiring some days after the job's scheduled end, revocable. One live
-- link per job: a reschedule reuses it (and moves its expiry), a revoked or expired one is replaced.
CREATE TABLE appointment_links (
  id uuid PRIMARY KEY,
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  job_id uuid NOT NULL,
  token_hash text NOT NULL UNIQUE CHECK (token_hash ~ '^[0-9a-f]{64}$'),
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (tenant_id, job_id) REFERENCES jobs (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX appointment_links_job ON appointment_links (tenant_id, job_id) WHERE revoked_at IS NULL;
SELECT platform_enable_tenant_rls('appointment_links');
