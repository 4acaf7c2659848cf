-- Where a quote moves its lead in the pipeline (docs/control-plane.md, "The pipeline follows the
-- work"): per tenant and event, the name of the ERP stage (NULL: do not move). No row: the default
-- (the ERP's "Proposition" when a quote is sent, its won stage when a quote is accepted).
CREATE TABLE crm_pipeline_rules (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  event text NOT NULL CHECK (event IN ('quote_sent', 'quote_accepted')),
  stage_name varchar(100),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, event)
);
SELECT platform_enable_tenant_rls('crm_pipeline_rules');
