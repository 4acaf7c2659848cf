-- Tenant domains: verification of custom domains and cache invalidation of host → tenant resolution
-- (docs/control-plane.md, "Domains and resolution").
--
-- A custom domain starts `pending`. The worker's DNS check (apps/worker/src/features/domains) looks
-- for its CNAME to the tenants host: `cname_seen_at` is when it was first seen (the certificate step
-- may then ask the CA), `last_checked_at`/`check_error` what the last look found ("could not check" is
-- not a failure), and a CNAME still wrong `DOMAIN_VERIFY_DEADLINE_H` hours after `verify_started_at`
-- makes it `failed` with `failure_reason`. `POST .../check` restarts the clock (verify_started_at) and
-- asks for a look now (next_check_at).
ALTER TABLE tenant_domains
  ADD COLUMN cname_seen_at timestamptz,
  ADD COLUMN last_checked_at timestamptz,
  ADD COLUMN check_error text,
  ADD COLUMN failure_reason text,
  ADD COLUMN verify_started_at timestamptz NOT NULL DEFAULT now(),
  ADD COLUMN next_check_at timestamptz NOT NULL DEFAULT now(),
  ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now();

-- One primary domain per tenant (setting a new one unsets the old in the same transaction).
CREATE UNIQUE INDEX tenant_domains_one_primary ON tenant_domains (tenant_id) WHERE is_primary;
-- The DNS check's queue: pending custom domains due for a look.
CREATE INDEX tenant_domains_check_due ON tenant_domains (next_check_at)
  WHERE domain_type = 'custom' AND ssl_status = 'pending';

-- Every process that resolves hosts caches the answers; any change to a tenant or a domain tells
-- them all to forget (LISTEN platform_tenancy). PostgreSQL folds identical notices of one transaction
-- into one and delivers them at commit only.
CREATE OR REPLACE FUNCTION platform_tenancy_notify() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('platform_tenancy', TG_TABLE_NAME);
  RETURN NULL;
END $$;

CREATE TRIGGER tenants_notify_change AFTER INSERT OR UPDATE OR DELETE ON tenants
  FOR EACH STATEMENT EXECUTE FUNCTION platform_tenancy_notify();
CREATE TRIGGER tenant_domains_notify_insert_delete AFTER INSERT OR DELETE ON tenant_domains
  FOR EACH STATEMENT EXECUTE FUNCTION platform_tenancy_notify();
-- The site name falls back to tenant_settings.company_name.
CREATE TRIGGER tenant_settings_notify_change AFTER INSERT OR UPDATE OR DELETE ON tenant_settings
  FOR EACH STATEMENT EXECUTE FUNCTION platform_tenancy_notify();
-- The DNS check writes last_checked_at on every look: only changes resolution can see notify.
CREATE TRIGGER tenant_domains_notify_update AFTER UPDATE ON tenant_domains
  FOR EACH ROW
  WHEN ((OLD.domain, OLD.tenant_id, OLD.ssl_status, OLD.domain_type) IS DISTINCT FROM
        (NEW.domain, NEW.tenant_id, NEW.ssl_status, NEW.domain_type))
  EXECUTE FUNCTION platform_tenancy_notify();

-- Request code (owner/admin through withTenant) manages its own tenant's domains; 0100 put the table
-- under RLS already. The platform_app role needs no grant on tenants beyond 0100's SELECT.
SELECT platform_enable_tenant_rls('tenant_domains');
