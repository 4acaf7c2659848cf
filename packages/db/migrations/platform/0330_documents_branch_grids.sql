-- Migration 0330: stored invoice PDFs, and branch price grids.
-- The PDF a posted invoice was first drawn as (docs/documents.md): rendered at its first download and
-- kept in the object store under this key, so the office, the portal and every later download serve
-- the same bytes even after the tenant's logo, colours or grids change. A draft invoice has no row:
-- it is drawn fresh each time. The ERP's invoice id is only unique within the tenant's own ERP.
CREATE TABLE invoice_documents (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  move_id integer NOT NULL,
  pdf_key varchar(1024) NOT NULL,
  stored_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, move_id)
);
SELECT platform_enable_tenant_rls('invoice_documents');

-- A branch's own price grid for a product (docs/control-plane.md, "Branches"; multi_location): a quote
-- for a lead the branch serves is priced from it, else from the tenant's grid of that product
-- (price_grids). Same shape and checks as price_grids; gone with its branch.
CREATE TABLE branch_price_grids (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  branch_id uuid NOT NULL REFERENCES branches (id) ON DELETE CASCADE,
  product_code varchar(40) NOT NULL CHECK (product_code ~ '^[a-z0-9][a-z0-9_-]{0,39}$'),
  name varchar(100) NOT NULL,
  bands jsonb NOT NULL CHECK (jsonb_typeof(bands) = 'object'),
  options jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(options) = 'array'),
  mount_allowance_in jsonb NOT NULL DEFAULT '{"inside": 0, "outside": 0}' CHECK (jsonb_typeof(mount_allowance_in) = 'object'),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (branch_id, product_code)
);
CREATE INDEX branch_price_grids_tenant ON branch_price_grids (tenant_id);
SELECT platform_enable_tenant_rls('branch_price_grids');
