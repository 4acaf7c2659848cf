-- Accounts, plan usage and the audit log of the control plane (docs/control-plane.md).

-- People. One account (email) may belong to several tenants through memberships. Global, so not
-- tenant-owned; inside a tenant's scope only members of that tenant are visible (policy below).
CREATE TABLE users (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  email varchar(254) NOT NULL UNIQUE CHECK (email = lower(email)),
  name varchar(100) NOT NULL DEFAULT '',
  -- argon2id PHC string; null until an invited user sets a password.
  password_hash text,
  disabled_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE tenant_memberships (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  user_id uuid NOT NULL REFERENCES users (id),
  role text NOT NULL CHECK (role IN ('owner', 'admin', 'office', 'technician')),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, user_id)
);
CREATE INDEX tenant_memberships_user ON tenant_memberships (user_id);
SELECT platform_enable_tenant_rls('tenant_memberships');

ALTER TABLE users ENABLE ROW LEVEL SECURITY;
CREATE POLICY users_of_tenant ON users FOR SELECT TO platform_app USING (
  EXISTS (SELECT 1 FROM tenant_memberships m WHERE m.user_id = users.id AND m.tenant_id = platform_current_tenant())
);
CREATE POLICY users_insert ON users FOR INSERT TO platform_app WITH CHECK (true);
CREATE POLICY users_update ON users FOR UPDATE TO platform_app USING (
  EXISTS (SELECT 1 FROM tenant_memberships m WHERE m.user_id = users.id AND m.tenant_id = platform_current_tenant())
);
GRANT SELECT, INSERT, UPDATE ON users TO platform_app;
-- The platform_app role may change a tenant's plan (owners do), nothing else on the tenant row.
GRANT UPDATE (plan, updated_at) ON tenants TO platform_app;
CREATE POLICY tenant_self_update ON tenants FOR UPDATE TO platform_app USING (id = platform_current_tenant());

-- Jobs created per tenant and UTC month, for the plan's jobs-per-month limit (counted when the
-- platform creates the job, in the same transaction as its outbox or ERP call record).
CREATE TABLE tenant_job_counts (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  month date NOT NULL CHECK (extract(day FROM month) = 1),
  jobs integer NOT NULL DEFAULT 0 CHECK (jobs >= 0),
  PRIMARY KEY (tenant_id, month)
);
SELECT platform_enable_tenant_rls('tenant_job_counts');

-- Who did what, when, from where: every change and every sign-in, per tenant. Append-only: no role
-- may update or delete a row (the trigger holds for the owner role too).
CREATE TABLE audit_log (
  id bigserial PRIMARY KEY,
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  at timestamptz NOT NULL DEFAULT now(),
  actor_kind text NOT NULL CHECK (actor_kind IN ('user', 'portal', 'system', 'operator')),
  actor_id text,
  action varchar(80) NOT NULL,
  target_type varchar(40),
  target_id text,
  ip inet,
  detail jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(detail) = 'object')
);
CREATE INDEX audit_log_tenant_at ON audit_log (tenant_id, at DESC);
CREATE INDEX audit_log_tenant_action ON audit_log (tenant_id, action, at DESC);
SELECT platform_enable_tenant_rls('audit_log');
REVOKE UPDATE, DELETE ON audit_log FROM platform_app;
GRANT USAGE, SELECT ON SEQUENCE audit_log_id_seq TO platform_app;

CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only' USING ERRCODE = 'insufficient_privilege';
END $$;
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
