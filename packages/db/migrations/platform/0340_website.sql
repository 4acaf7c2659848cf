-- A tenant's public website (docs/website.md), owned by packages/website: the draft its owner edits,
-- every version it published (the newest is live; earlier ones stay for a rollback), the catalogue the
-- control plane derives from its price grids and branches, and its Meta pixel and sealed Conversions
-- API token. Every change NOTIFYs platform_website with the tenant id, so each landing process drops
-- that tenant's cached snapshot at the commit.
CREATE TABLE website_drafts (
  tenant_id uuid PRIMARY KEY REFERENCES tenants (id) ON DELETE CASCADE,
  content jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
SELECT platform_enable_tenant_rls('website_drafts');

CREATE TABLE website_versions (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  version integer NOT NULL CHECK (version > 0),
  content jsonb NOT NULL,
  published_at timestamptz NOT NULL DEFAULT now(),
  -- Who published it (null: a user since deleted); the audit log keeps the full story.
  published_by uuid,
  PRIMARY KEY (tenant_id, version)
);
SELECT platform_enable_tenant_rls('website_versions');

CREATE TABLE website_catalogs (
  tenant_id uuid PRIMARY KEY REFERENCES tenants (id) ON DELETE CASCADE,
  catalog jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
SELECT platform_enable_tenant_rls('website_catalogs');

CREATE TABLE website_tracking (
  tenant_id uuid PRIMARY KEY REFERENCES tenants (id) ON DELETE CASCADE,
  meta_pixel_id varchar(32),
  -- Sealed by @platform/secrets (AAD binds tenant, table and column); never stored in the clear.
  meta_capi_token_enc text,
  updated_at timestamptz NOT NULL DEFAULT now()
);
SELECT platform_enable_tenant_rls('website_tracking');

-- Per row so the payload names the tenant; PostgreSQL folds identical notices of one transaction.
CREATE OR REPLACE FUNCTION platform_website_notify() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('platform_website', COALESCE(NEW.tenant_id, OLD.tenant_id)::text);
  RETURN NULL;
END $$;

CREATE TRIGGER website_versions_notify AFTER INSERT OR UPDATE OR DELETE ON website_versions
  FOR EACH ROW EXECUTE FUNCTION platform_website_notify();
CREATE TRIGGER website_catalogs_notify AFTER INSERT OR UPDATE OR DELETE ON website_catalogs
  FOR EACH ROW EXECUTE FUNCTION platform_website_notify();
CREATE TRIGGER website_tracking_notify AFTER INSERT OR UPDATE OR DELETE ON website_tracking
  FOR EACH ROW EXECUTE FUNCTION platform_website_notify();
-- The draft is not on any page, but the preview (docs/website.md) renders it: it notifies too.
CREATE TRIGGER website_drafts_notify AFTER INSERT OR UPDATE OR DELETE ON website_drafts
  FOR EACH ROW EXECUTE FUNCTION platform_website_notify();
