-- The measuring visit (docs/control-plane.md, "Measuring visits"): a job has a kind, a measure job
-- keeps the windows its measurer recorded, and "Send to office" makes one draft quote from them.

-- What the visit is for. Existing jobs were all installs.
ALTER TABLE jobs ADD COLUMN kind text NOT NULL DEFAULT 'install' CHECK (kind IN ('measure', 'install', 'service'));
-- The draft quote a measure job's windows became (sales_quotes.id; one per job).
ALTER TABLE jobs ADD COLUMN quote_id uuid;
CREATE INDEX jobs_kind ON jobs (tenant_id, kind) WHERE kind <> 'install';

-- One window as measured on site. `id` is made by the phone, so a change resent after a lost answer
-- is the same row; a removed window is kept as removed (a late resend of its edit must not revive it).
CREATE TABLE job_measurements (
  id uuid PRIMARY KEY,
  tenant_id uuid NOT NULL,
  job_id uuid NOT NULL,
  position integer NOT NULL CHECK (position BETWEEN 1 AND 1000),
  room varchar(60) NOT NULL,
  product_code varchar(40) NOT NULL,
  width_in numeric(7, 3) NOT NULL CHECK (width_in > 0 AND width_in <= 600),
  drop_in numeric(7, 3) NOT NULL CHECK (drop_in > 0 AND drop_in <= 600),
  mount text NOT NULL CHECK (mount IN ('inside', 'outside')),
  colour varchar(40) NOT NULL DEFAULT '',
  options jsonb NOT NULL DEFAULT '[]',
  notes varchar(2000) NOT NULL DEFAULT '',
  removed boolean NOT NULL DEFAULT false,
  updated_by uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (tenant_id, id),
  FOREIGN KEY (tenant_id, job_id) REFERENCES jobs (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX job_measurements_job ON job_measurements (tenant_id, job_id, position);
SELECT platform_enable_tenant_rls('job_measurements');

-- A photo taken of one measured window (null: a photo of the job).
ALTER TABLE job_attachments ADD COLUMN measurement_id uuid;
