/**
 * `npm run bench:reports`: the reports of a tenant with 50,000 leads, 20,000 orders and 40,000
 * invoices (its own embedded ERP database, served over JSON-RPC in this process): p95 of
 * `GET /reports/summary` and of `GET /reports/funnel` by each group (goal: under 1 s), each printed
 * beside the same aggregate in plain SQL on the ERP's tables (ratio printed), and a check that the
 * funnel's revenue by source adds up to the paid invoices of the range to the cent (exit 1 if not).
 *
 * Seeding is bulk SQL (seed-reports.ts): one lead, order and paid invoice made through the ERP, then
 * cloned with `generate_series`, spread over 2026 with their attribution. Engine: PostgreSQL when
 * DATABASE_URL is set (a scratch database), else PGlite in memory.
 */
import { FUNNEL_GROUPS, type ReportFunnel } from '@platform/contracts/reports.js';
import type { Erp } from '@platform/erp';
import { startTestErp } from '@platform/erp-embedded/testing';

import { startControlKit } from '../../apps/control/src/testing/control-test-kit.js';
import { alternate, call, closeAgent, report, stats } from '../control/control-bench.support.js';
import { baselineSql, paidCents, seedReports } from './seed-reports.js';

const N = Number(process.env.BENCH_SAMPLES ?? 30);
const SIZES = {
  leads: Number(process.env.BENCH_LEADS ?? 50_000),
  orders: Number(process.env.BENCH_ORDERS ?? 20_000),
  invoices: Number(process.env.BENCH_INVOICES ?? 40_000),
};
const RANGE = { from: '2026-01-01', to: '2026-12-31' };
if (process.env.DATABASE_URL) process.env.TEST_DATABASE_URL = process.env.DATABASE_URL;
console.log(`engine: ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}; ${N} pairs each, one call at a time`);

const erps = new Map<string, Erp>();
const kit = await startControlKit({ LOG_LEVEL: 'silent' }, { erps: { forTenant: async (id) => erps.get(id)! } });
const erp = await startTestErp({ db: kit.t.db, dbName: 'bench_reports' });
let failed = false;
try {
  const t = await kit.tenant('bench-reports', 'professional');
  erps.set(t.id, erp.erp);
  const t0 = Date.now();
  const schema = `erp_${erp.dbName}`;
  await seedReports(kit.t.db, erp.erp, schema, SIZES);
  console.log(
    `seeded ${SIZES.leads} leads, ${SIZES.orders} orders, ${SIZES.invoices} invoices in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
  );
  const base = await kit.app.listen({ port: 0, host: '127.0.0.1' });
  const get = async (path: string) => {
    const r = await call(`${base}${path}`, { headers: { authorization: `Bearer ${t.token}` } });
    if (r.status !== 200) throw new Error(`${path}: ${r.status} ${r.body.slice(0, 200)}`);
    return r.body;
  };
  const range = `from=${RANGE.from}&to=${RANGE.to}`;
  const sql = (which: Parameters<typeof baselineSql>[1]) => async () => {
    await kit.t.db.query(baselineSql(schema, which), [`${RANGE.from} 00:00:00`, '2027-01-01 00:00:00']);
  };
  const goals: string[] = [];
  const measure = async (label: string, path: string, which: Parameters<typeof baselineSql>[1]) => {
    const [api, plain] = await alternate(N, 3, async () => void (await get(path)), sql(which));
    report(label, `GET ${path.split('?')[0]}`, stats(api), 'plain SQL, same aggregate', stats(plain));
    goals.push(
      `${label}: p95 ${stats(api).p95.toFixed(0)} ms (goal < 1000) ${stats(api).p95 < 1000 ? 'met' : 'NOT met'}`,
    );
  };
  await measure('summary (a year)', `/reports/summary?${range}`, 'summary');
  for (const group of FUNNEL_GROUPS)
    await measure(`funnel by ${group} (a year)`, `/reports/funnel?${range}&group=${group}`, group);

  // The revenue by source must be the paid invoices of the range, to the cent.
  const expected = await paidCents(kit.t.db, schema, RANGE.from, '2027-01-01');
  for (const group of FUNNEL_GROUPS) {
    const f = JSON.parse(await get(`/reports/funnel?${range}&group=${group}`)) as ReportFunnel;
    const rows = f.rows.reduce((n, r) => n + r.revenue, 0);
    const ok = rows === expected && f.total.revenue === expected;
    if (!ok) failed = true;
    console.log(
      `revenue by ${group}: ${rows} cents; paid invoices in SQL: ${expected} cents → ${ok ? 'equal' : 'DIFFERENT'}`,
    );
  }
  for (const g of goals) console.log(g);
} finally {
  closeAgent();
  await erp.close();
  await kit.close();
}
if (failed) process.exit(1);
