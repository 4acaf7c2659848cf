/**
 * `npm run bench:erp`: the embedded ERP's JSON-RPC throughput, beside the platform's plain SQL for the
 * same read, in the same run. The ERP runs in a child process (its own event loop); the client here
 * keeps `CONCURRENCY` calls in flight for `SECONDS` per round; rounds alternate RPC and SQL.
 *   search_read: crm.lead, 80 records with a many2one (partner_id → [id, name])
 *   create:      res.partner, one record per call
 *   SQL:         the same 80 rows with the partner's name, through @platform/db (no HTTP, no ORM)
 * PostgreSQL when DATABASE_URL is set (a scratch database), else PGlite under a temp directory.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDb, type Db } from '@platform/db';
import { runLoad, scratchPg, startErpChild, type Load } from './erp-bench.support.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONCURRENCY = 8;
const ROUNDS = 2;

const dataDir = mkdtempSync(join(tmpdir(), 'bench-erp-'));
const pg = process.env.DATABASE_URL ? await scratchPg(process.env.DATABASE_URL) : undefined;
const env = { DATA_DIR: dataDir, ...(pg ? { DATABASE_URL: pg.url } : {}) };
console.log(`engine: ${pg ? 'PostgreSQL' : 'PGlite'}; ${CONCURRENCY} calls in flight, ${SECONDS} s per round, ${ROUNDS} rounds`);

let id = 0;
async function rpc(url: string, key: string, model: string, method: string, args: unknown[], kwargs: object = {}): Promise<unknown> {
  const r = await fetch(`${url}/jsonrpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'call', id: ++id, params: { service: 'object', method: 'execute_kw', args: ['platform', 2, key, model, method, args, kwargs] } }),
  });
  const body = (await r.json()) as { result?: unknown; error?: { data?: { message?: string } } };
  if (body.error) throw new Error(body.error.data?.message ?? 'rpc error');
  return body.result;
}

const SQL = `SELECT l.id, l.name, l.partner_id, p.name AS partner_name FROM erp_platform.crm_lead l
  LEFT JOIN erp_platform.res_partner p ON p.id = l.partner_id ORDER BY l.id LIMIT 80`;

const results: Record<string, Load[]> = { search_read: [], create: [], sql: [] };
try {
  for (let round = 1; round <= ROUNDS; round++) {
    const erp = await startErpChild(env);
    try {
      const key = readFileSync(join(dataDir, 'erp-platform-api-key'), 'utf8').trim();
      if (round === 1) {
        for (let i = 0; i < 80; i++) {
          const partner = await rpc(erp.url, key, 'res.partner', 'create', [{ name: `Customer ${i}`, email: `c${i}@example.com` }]);
          await rpc(erp.url, key, 'crm.lead', 'create', [{ name: `Shutters for ${i}`, partner_id: partner }]);
        }
      }
      const read = await runLoad(SECONDS, CONCURRENCY, async () => {
        const rows = (await rpc(erp.url, key, 'crm.lead', 'search_read', [[]], { fields: ['name', 'partner_id'], limit: 80, order: 'id' })) as unknown[];
        if (rows.length !== 80) throw new Error(`expected 80 rows, got ${rows.length}`);
      });
      let n = 0;
      const create = await runLoad(SECONDS, CONCURRENCY, async () => void (await rpc(erp.url, key, 'res.partner', 'create', [{ name: `Bench ${round}-${n++}` }])));
      results.search_read!.push(read);
      results.create!.push(create);
    } finally {
      await erp.stop();
    }
    // PGlite's files belong to one process at a time: the SQL round opens them once the ERP has stopped.
    const db: Db = await openDb({ databaseUrl: pg?.url, dataDir, name: 'erp' });
    try {
      results.sql!.push(await runLoad(SECONDS, CONCURRENCY, async () => {
        const r = await db.query(SQL);
        if (r.rows.length !== 80) throw new Error(`expected 80 rows, got ${r.rows.length}`);
      }));
    } finally {
      await db.close();
    }
  }
} finally {
  await pg?.drop();
  rmSync(dataDir, { recursive: true, force: true });
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
console.log('\n| measure | calls/s per round | median calls/s | p50 ms | p99 ms | errors |');
console.log('|---|---|---|---|---|---|');
for (const [name, loads] of Object.entries(results)) {
  console.log(`| ${name} | ${loads.map((l) => l.rate.toFixed(0)).join(', ')} | ${median(loads.map((l) => l.rate)).toFixed(0)} | ${median(loads.map((l) => l.p50)).toFixed(1)} | ${median(loads.map((l) => l.p99)).toFixed(1)} | ${loads.reduce((a, l) => a + l.errors, 0)} |`);
}
const ratios = results.search_read!.map((l, i) => l.rate / results.sql![i]!.rate);
console.log(`\nratio search_read over JSON-RPC ÷ plain SQL (same read, same run): ${ratios.map((r) => r.toFixed(3)).join(', ')} (median ${median(ratios).toFixed(3)})`);
console.log(JSON.stringify({ bench: 'erp', engine: pg ? 'postgres' : 'pglite', search_read: median(results.search_read!.map((l) => l.rate)), create: median(results.create!.map((l) => l.rate)), sql: median(results.sql!.map((l) => l.rate)), ratio: median(ratios) }));
if (Object.values(results).some((ls) => ls.some((l) => l.errors > 0))) process.exitCode = 1;
