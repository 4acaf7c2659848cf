-- The control plane's /jobs (docs/control-plane.md, "Jobs"). The FSM order itself (customer,
-- address, schedule, stage, assignee, resolution) lives in the tenant's ERP database; these tables
-- hold what the ERP model has no place for, and the platform's id of each job, so that a job is
-- reachable only through its own tenant (row-level security), whatever ERP database it is in.

-- One row per FSM order the platform serves. `id` is the job id of the API; `erp_order_id` is the
-- fsm.order id in the tenant's ERP database.
CREATE TABLE jobs (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  erp_order_id integer NOT NULL CHECK (erp_order_id > 0),
  -- Tie-break of the route after the scheduled start (dispatch sets it; lower first).
  route_order integer NOT NULL DEFAULT 0 CHECK (route_order BETWEEN 0 AND 10000),
  -- The address's state or region: the ERP's fsm.location has no state field.
  address_state varchar(40),
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (tenant_id, erp_order_id),
  UNIQUE (tenant_id, id)
);
SELECT platform_enable_tenant_rls('jobs');

-- The windows and products of a job (the ERP's fsm.order has no lines; a text copy goes into its
-- Instructions so ERP users see them too). Sizes in inches to 1/8.
CREATE TABLE job_windows (
  tenant_id uuid NOT NULL,
  job_id uuid NOT NULL,
  position smallint NOT NULL CHECK (position BETWEEN 1 AND 200),
  room varchar(60) NOT NULL,
  product varchar(80) NOT NULL,
  width_in numeric(7, 3) NOT NULL CHECK (width_in > 0 AND width_in <= 600),
  drop_in numeric(7, 3) NOT NULL CHECK (drop_in > 0 AND drop_in <= 600),
  mount text NOT NULL CHECK (mount IN ('inside', 'outside')),
  colour varchar(40) NOT NULL DEFAULT '',
  PRIMARY KEY (tenant_id, job_id, position),
  FOREIGN KEY (tenant_id, job_id) REFERENCES jobs (tenant_id, id) ON DELETE CASCADE
);
SELECT platform_enable_tenant_rls('job_windows');

CREATE TABLE job_notes (
  id uuid PRIMARY KEY,
  tenant_id uuid NOT NULL,
  job_id uuid NOT NULL,
  body varchar(4000) NOT NULL CHECK (length(body) > 0),
  author_id uuid NOT NULL,
  author_name varchar(254) NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (tenant_id, job_id) REFERENCES jobs (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX job_notes_job ON job_notes (tenant_id, job_id, created_at);
SELECT platform_enable_tenant_rls('job_notes');

-- Ticked checklist items; the items themselves are derived from the job (job-checklist.ts).
CREATE TABLE job_checklist (
  tenant_id uuid NOT NULL,
  job_id uuid NOT NULL,
  item_id varchar(40) NOT NULL,
  done boolean NOT NULL,
  updated_by uuid NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, job_id, item_id),
  FOREIGN KEY (tenant_id, job_id) REFERENCES jobs (tenant_id, id) ON DELETE CASCADE
);
SELECT platform_enable_tenant_rls('job_checklist');

-- Photos and signatures: an object in the tenants' store, registered once per key.
CREATE TABLE job_attachments (
  tenant_id uuid NOT NULL,
  job_id uuid NOT NULL,
  key varchar(300) NOT NULL,
  kind text NOT NULL CHECK (kind IN ('photo_before', 'photo_after', 'signature')),
  bytes integer NOT NULL CHECK (bytes > 0),
  created_by uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, key),
  FOREIGN KEY (tenant_id, job_id) REFERENCES jobs (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX job_attachments_job ON job_attachments (tenant_id, job_id, created_at);
SELECT platform_enable_tenant_rls('job_attachments');

-- A control-plane technician and the fsm.person that stands for them in the tenant's ERP database
-- (made on their first assignment).
CREATE TABLE job_technicians (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  user_id uuid NOT NULL,
  erp_person_id integer NOT NULL CHECK (erp_person_id > 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, user_id),
  UNIQUE (tenant_id, erp_person_id)
);
SELECT platform_enable_tenant_rls('job_technicians');

-- Idempotency-Key of every mutating /jobs call. `pending` is the intent, committed before the ERP
-- is called (with the marker that finds the ERP effect again and the job's version it was based
-- on); `done` carries the stored answer. A pending row whose lease ran out is taken over by the next
-- request with the same key, which looks for the effect before applying it again.
CREATE TABLE job_requests (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  key varchar(255) NOT NULL,
  fingerprint char(64) NOT NULL,
  state text NOT NULL CHECK (state IN ('pending', 'done')),
  marker uuid NOT NULL,
  base_version varchar(40),
  lease_until timestamptz NOT NULL,
  status_code smallint,
  response jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, key)
);
CREATE INDEX job_requests_created ON job_requests (created_at);
SELECT platform_enable_tenant_rls('job_requests');
