/**
 * `npm run bench:jobs`: page 1 of a day's `GET /jobs` for a tenant with 1,000 jobs and one with
 * 50,000 (each in its own embedded ERP database, served over JSON-RPC in this process), and a direct
 * JSON-RPC `search_read` of the same page of the larger one. The page should cost the same whatever
 * the tenant's history (median ratio 50k/1k at most 1.3) and stay near the bare ERP call (ratio of
 * search_read to /jobs, goal at least 0.5). Pairs are measured in alternation, one call at a time.
 *
 * Seeding is bulk SQL: three jobs through the real service (customer, location, technician), then
 * their first order cloned in the ERP schema with `generate_series` (20 a day) and registered as jobs.
 * Engine: PostgreSQL when DATABASE_URL is set (a scratch database), else PGlite in memory.
 */
import type { Erp } from '@platform/erp';
import { startTestErp, type TestErp } from '@platform/erp-embedded/testing';

import { LIST_FIELDS, LIST_ORDER } from '../../apps/control/src/features/jobs/erp/fsm-order-list.js';
import { PLATFORM_ORDERS } from '../../apps/control/src/features/jobs/erp/fsm-orders.js';
import { seedDemoJobs } from '../../apps/control/src/features/jobs/seed-demo-jobs.js';
import { startControlKit } from '../../apps/control/src/testing/control-test-kit.js';
import { alternate, call, closeAgent, executeKwBody, report, stats } from '../control/control-bench.support.js';

const N = Number(process.env.BENCH_SAMPLES ?? 100);
const SIZES = [Number(process.env.BENCH_SMALL ?? 1000), Number(process.env.BENCH_LARGE ?? 50_000)] as const;
const PER_DAY = 20;
const FIRST_DAY = '2026-01-01';
/** A day both tenants fill with PER_DAY jobs (the eleventh bulk day). */
const DAY = '2026-01-12';
if (process.env.DATABASE_URL) process.env.TEST_DATABASE_URL = process.env.DATABASE_URL;
console.log(`engine: ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}; ${N} pairs each, one call at a time`);

const erps = new Map<string, Erp>();
const kit = await startControlKit({ LOG_LEVEL: 'silent' }, { erps: { forTenant: async (id) => erps.get(id)! } });
const served: TestErp[] = [];
try {
  const tenants: { t: { id: string; token: string }; erp: TestErp; size: number }[] = [];
  for (const [i, size] of SIZES.entries()) {
    const t = await kit.tenant(`bench-jobs-${i}`, 'enterprise');
    const erp = await startTestErp({ db: kit.t.db, dbName: `bench_jobs_${i}` });
    served.push(erp);
    erps.set(t.id, erp.erp);
    const t0 = Date.now();
    await seed(t.id, erp, size);
    console.log(`seeded ${size} jobs in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    tenants.push({ t, erp, size });
  }
  const base = await kit.app.listen({ port: 0, host: '127.0.0.1' });
  const list = (tenant: (typeof tenants)[number]) => async () => {
    const r = await call(`${base}/jobs?date=${DAY}&page_size=${PER_DAY}`, {
      headers: { authorization: `Bearer ${tenant.t.token}` },
    });
    const body = JSON.parse(r.body) as { items: unknown[]; total: number };
    if (r.status !== 200 || body.items.length !== PER_DAY || body.total !== PER_DAY)
      throw new Error(`/jobs of ${tenant.size}: ${r.status} ${r.body.slice(0, 200)}`);
  };
  const [small, large] = tenants as [(typeof tenants)[number], (typeof tenants)[number]];
  const direct = await directSearchRead(large.erp);
  const [s, l] = await alternate(N, 20, list(small), list(large));
  report(
    `GET /jobs?date= page 1 (${PER_DAY} jobs): tenant of ${large.size} vs tenant of ${small.size}`,
    `/jobs, ${large.size} jobs`,
    stats(l),
    `/jobs, ${small.size} jobs`,
    stats(s),
  );
  const [l2, d] = await alternate(N, 20, list(large), direct);
  report(
    `GET /jobs?date= page 1 (${PER_DAY} of ${large.size} jobs) vs direct search_read of the same page`,
    'GET /jobs',
    stats(l2),
    'JSON-RPC search_read (fsm.order)',
    stats(d),
  );
  console.log(`median 50k / 1k: ${(stats(l).p50 / stats(s).p50).toFixed(2)} (goal <= 1.3)`);
  console.log(`median search_read / GET /jobs: ${(stats(d).p50 / stats(l2).p50).toFixed(2)} (goal >= 0.5)`);
} finally {
  closeAgent();
  for (const e of served) await e.close();
  await kit.close();
}

/** Three jobs through the service, then `size - 3` clones of the first order in bulk, PER_DAY a day. */
async function seed(tenantId: string, erp: TestErp, size: number): Promise<void> {
  const tech = await kit.member(tenantId, 'technician');
  const [first] = await seedDemoJobs(kit.deps, tenantId, tech.principal.userId, FIRST_DAY);
  const tpl = (await kit.t.db.query<{ erp_order_id: number }>('SELECT erp_order_id FROM jobs WHERE id = $1', [first]))
    .rows[0]!.erp_order_id;
  const schema = `erp_${erp.dbName}`;
  const cols = (
    await kit.t.db.query<{ c: string }>(
      `SELECT column_name AS c FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'fsm_order'
        AND column_name NOT IN ('id', 'name', 'description', 'scheduled_date_start', 'scheduled_date_end')`,
      [schema],
    )
  ).rows.map((r) => `"${r.c}"`);
  const start = `$2::timestamp + (g / ${PER_DAY} + 1) * interval '1 day' + (g % ${PER_DAY}) * interval '20 minutes'`;
  const ids = await kit.t.db.query<{ id: number }>(
    `INSERT INTO "${schema}".fsm_order (${cols.join(', ')}, name, description, scheduled_date_start, scheduled_date_end)
     SELECT ${cols.map((c) => `t.${c}`).join(', ')}, 'BENCH/' || g, 'platform-job:' || gen_random_uuid(),
            ${start}, ${start} + interval '1 hour'
       FROM "${schema}".fsm_order t, generate_series(0, $3::int - 1) g WHERE t.id = $1 RETURNING id`,
    [tpl, FIRST_DAY, size - 3],
  );
  await kit.t.db.query(
    `INSERT INTO jobs (tenant_id, erp_order_id, address_state, route_order) SELECT $1, unnest($2::int[]), 'CO', 0`,
    [tenantId, ids.rows.map((r) => r.id)],
  );
  await kit.t.db.query(`ANALYZE "${schema}".fsm_order`);
  await kit.t.db.query('ANALYZE jobs');
}

/** The same page straight from the ERP: the list's domain, fields and order, over JSON-RPC. */
async function directSearchRead(erp: TestErp): Promise<() => Promise<void>> {
  const domain = [
    ...PLATFORM_ORDERS,
    ['scheduled_date_start', '>=', `${DAY} 00:00:00`],
    ['scheduled_date_start', '<', '2026-01-13 00:00:00'],
  ];
  const body = await executeKwBody(erp, 'fsm.order', 'search_read', [domain], {
    fields: LIST_FIELDS,
    order: LIST_ORDER,
    limit: PER_DAY,
    offset: 0,
  });
  return async () => {
    const r = await call(`${erp.url}/jsonrpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    if ((JSON.parse(r.body) as { result: unknown[] }).result.length !== PER_DAY)
      throw new Error('search_read lost rows');
  };
}
