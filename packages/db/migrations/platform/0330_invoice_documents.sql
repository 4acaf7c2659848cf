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
