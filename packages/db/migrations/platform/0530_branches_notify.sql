-- The branch scope (which leads and jobs a person limited to branches sees) is read on every list;
-- each control-plane process keeps a tenant's branches in memory and forgets them on any change to
-- branches or branch_members, however made (the branches service, a cascade from a deleted tenant,
-- branch or user). Per row so the payload names the tenant; PostgreSQL folds identical notices of one
-- transaction into one and delivers them at commit only. The channel is the trigger's argument.
CREATE OR REPLACE FUNCTION platform_notify_tenant_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN PERFORM pg_notify(TG_ARGV[0], COALESCE(NEW.tenant_id, OLD.tenant_id)::text); RETURN NULL; END $$;

CREATE TRIGGER branches_notify AFTER INSERT OR UPDATE OR DELETE ON branches
  FOR EACH ROW EXECUTE FUNCTION platform_notify_tenant_change('platform_branches');
CREATE TRIGGER branch_members_notify AFTER INSERT OR UPDATE OR DELETE ON branch_members
  FOR EACH ROW EXECUTE FUNCTION platform_notify_tenant_change('platform_branches');
