-- A tenant's branches (docs/control-plane.md, "Branches"; plan feature multi_location): where it works
-- from, the ZIP codes each serves, and the people limited to it. A lead or a job belongs to the branch
-- whose ZIP codes hold its ZIP, else to the default branch: computed from the ZIP on every read, so a
-- change of service area moves every lead at once and nothing is copied into the ERP.
CREATE TABLE branches (
  id uuid PRIMARY KEY,
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  name varchar(100) NOT NULL,
  address varchar(1000),
  phone varchar(20),
  time_zone varchar(64),
  zip_codes text[] NOT NULL DEFAULT '{}',
  is_default boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (tenant_id, name)
);
CREATE UNIQUE INDEX branches_one_default ON branches (tenant_id) WHERE is_default;
SELECT platform_enable_tenant_rls('branches');

CREATE TABLE branch_members (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  branch_id uuid NOT NULL REFERENCES branches (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  PRIMARY KEY (branch_id, user_id)
);
CREATE INDEX branch_members_user ON branch_members (tenant_id, user_id);
SELECT platform_enable_tenant_rls('branch_members');
