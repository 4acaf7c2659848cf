-- The company's time zone (an IANA name, checked with Intl by the control plane) and currency (an
-- ISO 4217 code): money is shown in the tenant's currency, dates in its zone (docs/control-plane.md,
-- "Settings"). Existing tenants get the defaults new ones start with. tenant_settings keeps its RLS.
ALTER TABLE tenant_settings
  ADD COLUMN time_zone varchar(64) NOT NULL DEFAULT 'America/Denver',
  ADD COLUMN currency char(3) NOT NULL DEFAULT 'USD' CHECK (currency ~ '^[A-Z]{3}$');
