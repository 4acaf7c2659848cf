-- ERP change feed: a cursor per (tenant, ERP database, model) and the last value seen of each watched
-- record, so a transition (old -> new) is recognised once, whoever polls and however often.
CREATE TABLE erp_change_cursors (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  erp_db text NOT NULL,
  model text NOT NULL,
  last_write_date text NOT NULL,
  last_id integer NOT NULL,
  baseline_done boolean NOT NULL DEFAULT false,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, erp_db, model)
);

CREATE TABLE erp_record_states (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  erp_db text NOT NULL,
  model text NOT NULL,
  record_id integer NOT NULL,
  value text,
  -- Display value (a stage's name) so events can say "from X to Y".
  label text,
  write_date text NOT NULL,
  PRIMARY KEY (tenant_id, erp_db, model, record_id)
);
