-- The control plane's foundation: tenants gain a lifecycle and a plan, and every tenant-owned row is
-- isolated by PostgreSQL itself (row-level security) for the application role.
--
-- How isolation works (docs/control-plane.md, "Isolation"):
--   * `platform_app` is a NOLOGIN role without BYPASSRLS. Request paths that act for one tenant run
--     their transaction as that role (`SET LOCAL ROLE platform_app`) with the tenant set for the
--     transaction only (`set_config('app.tenant_id', <uuid>, true)`): see withTenant() in @platform/db.
--   * Every table with a tenant_id column gets the policy `tenant_id = platform_current_tenant()`
--     for platform_app (USING and WITH CHECK): a row of another tenant can be neither read nor written.
--   * System work that spans tenants on purpose (the outbox relay, migrations, the change feed) runs as
--     the connecting (owning) role, which RLS does not restrict; it never serves a tenant's request.
-- A later migration that adds a tenant-owned table calls platform_enable_tenant_rls('<table>').

DO $$
BEGIN
  CREATE ROLE platform_app NOLOGIN NOSUPERUSER NOBYPASSRLS;
EXCEPTION
  -- The role is cluster-wide: another database of the same server (tests) may have created it.
  WHEN duplicate_object OR unique_violation THEN NULL;
END $$;

GRANT USAGE ON SCHEMA public TO platform_app;

CREATE OR REPLACE FUNCTION platform_current_tenant() RETURNS uuid
  LANGUAGE sql STABLE AS $$ SELECT nullif(current_setting('app.tenant_id', true), '')::uuid $$;

CREATE OR REPLACE FUNCTION platform_enable_tenant_rls(tbl regclass) RETURNS void
  LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('ALTER TABLE %s ENABLE ROW LEVEL SECURITY', tbl);
  EXECUTE format('DROP POLICY IF EXISTS tenant_isolation ON %s', tbl);
  EXECUTE format(
    'CREATE POLICY tenant_isolation ON %s TO platform_app USING (tenant_id = platform_current_tenant()) WITH CHECK (tenant_id = platform_current_tenant())',
    tbl);
  EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %s TO platform_app', tbl);
END $$;

-- Every existing tenant-owned table.
DO $$
DECLARE t record;
BEGIN
  FOR t IN
    SELECT c.table_name FROM information_schema.columns c
    JOIN information_schema.tables tb ON tb.table_schema = c.table_schema AND tb.table_name = c.table_name
    WHERE c.table_schema = 'public' AND c.column_name = 'tenant_id' AND tb.table_type = 'BASE TABLE'
  LOOP
    PERFORM platform_enable_tenant_rls(format('public.%I', t.table_name)::regclass);
  END LOOP;
END $$;

GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO platform_app;

-- Tenants: lifecycle, plan, the site name used in `SITE:` tags and the helpdesk team.
ALTER TABLE tenants
  ADD COLUMN status text NOT NULL DEFAULT 'active'
    CHECK (status IN ('provisioning', 'active', 'suspended', 'deleted')),
  ADD COLUMN plan text NOT NULL DEFAULT 'free' CHECK (plan IN ('free', 'starter', 'professional', 'enterprise')),
  ADD COLUMN site_name varchar(100),
  ADD COLUMN helpdesk_team_id integer,
  ADD COLUMN suspended_at timestamptz,
  ADD COLUMN deleted_at timestamptz,
  ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now();
-- The single-company install keeps every feature it had: it becomes an enterprise tenant.
UPDATE tenants SET plan = 'enterprise' WHERE is_default;

-- A tenant reads its own tenant row (the policy is on id, not tenant_id).
ALTER TABLE tenants ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_self ON tenants TO platform_app USING (id = platform_current_tenant());
GRANT SELECT ON tenants TO platform_app;
