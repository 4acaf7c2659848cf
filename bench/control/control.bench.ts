/**
 * `npm run bench:control`: in one run, (a) the host → tenant resolver's cost per request against the
 * same route without it, and (b) `GET /jobs` latency against a direct JSON-RPC `search_read` of the
 * same rows on the same embedded ERP. Each pair is measured in alternation, one call at a time, over
 * loopback HTTP with keep-alive; ratios with p50/p95 (docs/benchmarks.md).
 *
 * (a) The resolver every tenant-serving host uses (packages/tenancy TenantHostResolver: an in-process
 * cache invalidated by LISTEN/NOTIFY), warm (cache hit) and cold (a database look-up every request).
 * Engine: PostgreSQL when DATABASE_URL is set (a scratch database), else PGlite in memory.
 */
import type { Erp } from '@platform/erp';
import { startTestErp } from '@platform/erp-embedded/testing';
import { TenantHostResolver } from '@platform/tenancy';
import Fastify from 'fastify';

import { ORDER_FIELDS } from '../../apps/control/src/features/jobs/erp/fsm-orders.js';
import { seedDemoJobs } from '../../apps/control/src/features/jobs/seed-demo-jobs.js';
import { startControlKit } from '../../apps/control/src/testing/control-test-kit.js';
import { alternate, call, closeAgent, executeKwBody, report, stats } from './control-bench.support.js';

const N = Number(process.env.BENCH_SAMPLES ?? 300);
const JOBS_N = Number(process.env.BENCH_JOB_SAMPLES ?? 150);
if (process.env.DATABASE_URL) process.env.TEST_DATABASE_URL = process.env.DATABASE_URL;
console.log(
  `engine: ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}; ${N} resolver pairs, ${JOBS_N} /jobs pairs, one call at a time`,
);

// The control plane is composed before the ERP it will use exists (both share one database).
const ref: { erp?: Erp } = {};
const kit = await startControlKit({ LOG_LEVEL: 'silent' }, { erps: { forTenant: async () => ref.erp! } });
const served = await startTestErp({ db: kit.t.db, dbName: 'bench_tenant' });
ref.erp = served.erp;
try {
  // (a) resolver: two routes on one Fastify app, identical but for the tenant look-up.
  const t = await kit.tenant('bench', 'enterprise');
  await kit.t.db.query(
    `INSERT INTO tenant_domains (tenant_id, domain_type, domain, ssl_status) VALUES ($1, 'custom', 'bench.example.com', 'active')`,
    [t.id],
  );
  const resolver = new TenantHostResolver(kit.t.db, { tenantsHost: 'tenants.localhost' });
  const cold = new TenantHostResolver(kit.t.db, { tenantsHost: 'tenants.localhost' });
  const app = Fastify({ logger: false });
  app.get('/plain', async () => ({ ok: true }));
  app.get('/resolved', async (req) => ({
    ok: (resolver.cached(req.hostname) ?? (await resolver.resolve(req.hostname)))!.tenantId,
  }));
  app.get('/cold', async (req) => {
    cold.invalidate();
    return { ok: (await cold.resolve(req.hostname))!.tenantId };
  });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const hit = (path: string) => async () => {
    const r = await call(`${base}${path}`, { headers: { host: 'bench.example.com' } });
    if (r.status !== 200) throw new Error(`${path}: ${r.status}`);
  };
  const [warmRes, plain1] = await alternate(N, 50, hit('/resolved'), hit('/plain'));
  const [coldRes, plain2] = await alternate(N, 50, hit('/cold'), hit('/plain'));
  report(
    '(a) host → tenant resolver (TenantHostResolver), warm cache',
    'with resolver',
    stats(warmRes),
    'without',
    stats(plain1),
  );
  report(
    '(a) host → tenant resolver, cold (database look-up each request)',
    'with resolver',
    stats(coldRes),
    'without',
    stats(plain2),
  );
  await app.close();

  // (b) /jobs against search_read of the same rows: a technician's day of three demo jobs plus 17 more.
  const tech = await kit.member(t.id, 'technician');
  await seedDemoJobs(kit.deps, t.id, tech.principal.userId, '2026-11-25');
  for (let d = 1; d <= 17; d++)
    await seedDemoJobs(kit.deps, t.id, tech.principal.userId, `2026-12-${String(d).padStart(2, '0')}`);
  const control = await kit.app.listen({ port: 0, host: '127.0.0.1' });
  const list = `${control}/jobs?date=2026-11-25`;
  const auth = { authorization: `Bearer ${t.token}` };
  const rows = ((await (await fetch(list, { headers: auth })).json()) as { total: number }).total;
  const ids = await served.erp.search('fsm.order', [
    ['scheduled_date_start', '>=', '2026-11-25 00:00:00'],
    ['scheduled_date_start', '<', '2026-11-26 00:00:00'],
  ]);
  if (rows !== 3 || ids.length !== 3)
    throw new Error(`expected 3 jobs on the day, /jobs has ${rows}, ERP ${ids.length}`);
  const rpcBody = await executeKwBody(
    served,
    'fsm.order',
    'search_read',
    [
      [
        ['scheduled_date_start', '>=', '2026-11-25 00:00:00'],
        ['scheduled_date_start', '<', '2026-11-26 00:00:00'],
      ],
    ],
    { fields: ORDER_FIELDS },
  );
  const jobs = async () => {
    const r = await call(list, { headers: auth });
    if ((JSON.parse(r.body) as { items: unknown[] }).items.length !== 3) throw new Error('/jobs lost rows');
  };
  const direct = async () => {
    const r = await fetch(`${served.url}/jsonrpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: rpcBody,
    });
    if (((await r.json()) as { result: unknown[] }).result.length !== 3) throw new Error('search_read lost rows');
  };
  const [j, s] = await alternate(JOBS_N, 20, jobs, direct);
  report(
    `(b) GET /jobs?date= (3 jobs of ${await served.erp.searchCount('fsm.order', [])}) vs direct search_read`,
    'GET /jobs',
    stats(j),
    'JSON-RPC search_read (fsm.order)',
    stats(s),
  );
} finally {
  closeAgent();
  await served.close();
  await kit.close();
}
