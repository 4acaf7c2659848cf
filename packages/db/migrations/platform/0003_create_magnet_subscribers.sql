-- Lead-magnet subscribers. The feature is off by default (decided removal), but when it is switched
-- on the table exists, so "relation does not exist" cannot happen. `swatch` needs a postal address.
CREATE TABLE magnet_subscribers (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  email text NOT NULL,
  magnet_type text NOT NULL CHECK (magnet_type IN ('swatch', 'price_guide', 'lookbook')),
  form_source text,
  form_source_parsed jsonb,
  address text,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (tenant_id, email, magnet_type),
  CONSTRAINT swatch_needs_address CHECK (magnet_type <> 'swatch' OR length(btrim(coalesce(address, ''))) > 0)
);
