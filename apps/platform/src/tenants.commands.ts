/**
 * The commands of `npm run tenants` over the control plane's services (the same code path as the
 * operator API). Each prints JSON lines on stdout and nothing else.
 */
import { parseArgs } from 'node:util';

import type { ControlDeps } from '@platform/app-control/deps.js';
import { seedDemoJobs } from '@platform/app-control/features/jobs/seed-demo-jobs.js';
import { tenantView } from '@platform/app-control/features/tenants/tenants.routes.js';
import { createTenantSchema, outsideErpSchema } from '@platform/app-control/features/tenants/tenants.schemas.js';
import { parseOrThrow } from '@platform/http-kit';
import { AppError } from '@platform/kernel';
import { findTenantByIdOrSlug } from '@platform/tenancy';
import { z } from 'zod';

export const USAGE = `usage: npm run tenants -- create --slug <slug> --name <name> --plan <free|starter|professional|enterprise>
                              --owner-email <email> --owner-password <password>
                              [--erp-url <url> --erp-db <db> --erp-login <login> --erp-api-key <key>]
       npm run tenants -- list
       npm run tenants -- suspend|resume|delete <id|slug>
       npm run tenants -- route <id|slug> --erp-url <url> --erp-db <db> --erp-login <login> --erp-api-key <key>
       npm run tenants -- purge [--days <n>]      drop ERP databases of tenants deleted n days ago (default TENANT_PURGE_AFTER_DAYS)
       npm run tenants -- add-member <id|slug> --email <email> --role <owner|admin|office|technician> --password <password> [--name <name>]
       npm run tenants -- seed-demo <id|slug> --technician-email <email> [--day <YYYY-MM-DD>]   three demo jobs of that technician (default today, UTC)
create prints one JSON line {"id","slug","erp_db"}; the others one JSON line per tenant.`;

/** A plan refusal names its problem code and the plan to move to, as the HTTP answer does. */
const withPlanCode = (e: unknown): never => {
  if (e instanceof AppError && e.code === 'PLAN_LIMIT_REACHED') {
    const to = e.details?.upgrade_to ? ` The ${String(e.details.upgrade_to)} plan allows more.` : '';
    throw new Error(`PLAN_LIMIT_REACHED: ${e.message}${to}`);
  }
  throw e;
};

const OPERATOR = { kind: 'operator' as const, id: 'cli' };
const print = (v: unknown) => process.stdout.write(`${JSON.stringify(v)}\n`);

const OPTIONS = {
  slug: { type: 'string' },
  name: { type: 'string' },
  plan: { type: 'string' },
  'owner-email': { type: 'string' },
  'owner-password': { type: 'string' },
  'erp-url': { type: 'string' },
  'erp-db': { type: 'string' },
  'erp-login': { type: 'string' },
  'erp-api-key': { type: 'string' },
  days: { type: 'string' },
  email: { type: 'string' },
  role: { type: 'string' },
  password: { type: 'string' },
  'technician-email': { type: 'string' },
  day: { type: 'string' },
} as const;

/** A member added by the operator, with a password: as an accepted invitation, plan limits included. */
const memberSchema = z.strictObject({
  email: z.email({ error: 'must be an email address' }).max(254),
  role: z.enum(['owner', 'admin', 'office', 'technician']),
  password: z.string().min(1).max(200),
  name: z.string().trim().max(120).optional(),
});
const seedSchema = z.strictObject({
  technician_email: z.email({ error: 'must be an email address' }),
  day: z.iso.date({ error: 'must be a date YYYY-MM-DD' }),
});

export type Parsed = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>;

export function parseTenantsArgs(argv: string[]): Parsed {
  return parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
}

const outside = (v: Parsed['values']) =>
  v['erp-url'] || v['erp-db'] || v['erp-login'] || v['erp-api-key']
    ? { url: v['erp-url'], db: v['erp-db'], login: v['erp-login'], api_key: v['erp-api-key'] }
    : undefined;

/** True when the command needs the embedded ERP's `db` service (creating a tenant there, purging). */
export const needsEmbeddedErp = (p: Parsed) =>
  (p.positionals[0] === 'create' && !outside(p.values)) || p.positionals[0] === 'purge';

export async function runTenantsCommand(deps: ControlDeps, p: Parsed): Promise<number> {
  const [command, ref] = p.positionals;
  const v = p.values;
  const tenantOf = async () => {
    const t = ref ? await findTenantByIdOrSlug(deps.db, ref) : undefined;
    if (!t) throw new AppError('NOT_FOUND', `No tenant ${ref ?? '(give an id or slug)'}.`);
    return t.id;
  };
  switch (command) {
    case 'create': {
      const input = parseOrThrow(createTenantSchema, {
        slug: v.slug,
        name: v.name,
        plan: v.plan,
        owner_email: v['owner-email'],
        owner_password: v['owner-password'],
        ...(outside(v) ? { erp: outside(v) } : {}),
      });
      const t = await deps.provisioning.create(input, OPERATOR);
      print({ id: t.id, slug: t.slug, erp_db: t.erp_db });
      return 0;
    }
    case 'list':
      for (const t of await deps.tenants.list()) print(tenantView(t));
      return 0;
    case 'suspend':
    case 'resume':
    case 'delete':
      print(tenantView(await deps.tenants.move(await tenantOf(), command, OPERATOR)));
      return 0;
    case 'route': {
      const erp = parseOrThrow(outsideErpSchema, outside(v) ?? {});
      print(tenantView(await deps.tenants.routeOutside(await tenantOf(), erp, OPERATOR)));
      return 0;
    }
    case 'purge': {
      const days = v.days === undefined ? deps.config.TENANT_PURGE_AFTER_DAYS : Number(v.days);
      if (!Number.isInteger(days) || days < 0)
        throw new AppError('VALIDATION_FAILED', '--days must be a whole number ≥ 0');
      for (const t of await deps.tenants.purge(deps.clock.now(), days, OPERATOR))
        print({ id: t.id, slug: t.slug, erp_db: t.erp_db, purged: true });
      return 0;
    }
    case 'add-member': {
      const m = parseOrThrow(memberSchema, { email: v.email, role: v.role, password: v.password, name: v.name });
      const tenantId = await tenantOf();
      // Accounts span tenants (users is not a tenant's table): one transaction, as provisioning adds the owner.
      const added = await deps.db
        .transaction(async (tx) => {
          const r = await deps.members.ensureMember(tx, tenantId, m);
          if (r.created)
            await deps.audit.record(tx, {
              tenantId,
              actor: OPERATOR,
              action: 'user.add',
              target: { type: 'user', id: r.userId },
              detail: { role: m.role },
            });
          return r;
        })
        .catch(withPlanCode);
      print({
        tenant_id: tenantId,
        user_id: added.userId,
        email: m.email.toLowerCase(),
        role: m.role,
        created: added.created,
      });
      return 0;
    }
    case 'seed-demo': {
      const s = parseOrThrow(seedSchema, {
        technician_email: v['technician-email'],
        day: v.day ?? deps.clock.now().toISOString().slice(0, 10),
      });
      const tenantId = await tenantOf();
      const tech = await deps.db.transaction((tx) => deps.members.technicianByEmail(tx, tenantId, s.technician_email));
      if (!tech) throw new AppError('NOT_FOUND', `No technician ${s.technician_email} in this tenant.`);
      for (const id of await seedDemoJobs(deps, tenantId, tech, s.day)) print({ tenant_id: tenantId, job_id: id });
      return 0;
    }
    default:
      process.stderr.write(`error: unknown command "${command ?? ''}"\n${USAGE}\n`);
      return 2;
  }
}
