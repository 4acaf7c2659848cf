-- Where each tenant's ERP lives (docs/control-plane.md, "Tenants" and "Provisioning"): the embedded
-- ERP (a database of its own, created by provisioning) or an outside Odoo 15. The service account's
-- API key is sealed with the platform's secret box (@platform/secrets; AAD = tenant, table, column),
-- never stored in clear. A tenant without a row (the default tenant of a single-company install)
-- uses the platform's default connection (ERP_URL, ERP_DB, ERP_LOGIN, ERP_API_KEY or the key file).
CREATE TABLE tenant_erp_routing (
  tenant_id uuid PRIMARY KEY REFERENCES tenants (id),
  kind text NOT NULL CHECK (kind IN ('embedded', 'odoo')),
  erp_url varchar(255) NOT NULL,
  erp_db varchar(63) NOT NULL,
  service_login varchar(100) NOT NULL,
  api_key_sealed text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
SELECT platform_enable_tenant_rls('tenant_erp_routing');
-- A tenant member may see where its ERP is, never change it (only provisioning, as the owner role, does).
REVOKE INSERT, UPDATE, DELETE ON tenant_erp_routing FROM platform_app;

-- tenant_settings (migration 0090) is owned by packages/tenancy from now on: owners and admins edit
-- it through the control plane, inside the tenant's scope. The social and SEO fields of the spec
-- already exist; RLS was enabled for it by migration 0100.

-- When a deleted tenant's embedded ERP database was dropped by `npm run tenants -- purge`.
ALTER TABLE tenants ADD COLUMN erp_purged_at timestamptz;
