/**
 * `npm run bench:erp`: the embedded ERP's JSON-RPC and XML-RPC throughput, beside the platform's plain
 * SQL for the same read, in the same run. The ERP runs in a child process (its own event loop); the client here
 * keeps `CONCURRENCY` calls in flight for `SECONDS` per round; rounds alternate RPC and SQL.
 *   search_read: crm.lead, 80 records with a many2one (partner_id → [id, name]), over JSON-RPC
 *   xmlrpc_search_read: the same call over /xmlrpc/2/object (request encoded once; the client counts
 *                the 80 records in the answer rather than parsing it, as JSON.parse is native and a JS
 *                XML parser in this one client process would measure the client, not the ERP)
 *   create:      res.partner, one record per call
 *   SQL:         the same 80 rows with the partner's name, through @platform/db (no HTTP, no ORM)
 * PostgreSQL when DATABASE_URL is set (a scratch database), else PGlite under a temp directory.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { type Db, openDb } from '@platform/db';
import { encodeCall, parseResponse } from '@platform/erp/contract/xmlrpc-wire.js';

import { type Load, runLoad, scratchPg, startErpChild } from './erp-bench.support.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONCURRENCY = 8;
const ROUNDS = 2;

const dataDir = mkdtempSync(join(tmpdir(), 'bench-erp-'));
const pg = process.env.DATABASE_URL ? await scratchPg(process.env.DATABASE_URL) : undefined;
const env = { DATA_DIR: dataDir, ...(pg ? { DATABASE_URL: pg.url } : {}) };
console.log(
  `engine: ${pg ? 'PostgreSQL' : 'PGlite'}; ${CONCURRENCY} calls in flight, ${SECONDS} s per round, ${ROUNDS} rounds`,
);

let id = 0;
async function rpc(
  url: string,
  key: string,
  model: string,
  method: string,
  args: unknown[],
  kwargs: object = {},
): Promise<unknown> {
  const r = await fetch(`${url}/jsonrpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      method: 'call',
      id: ++id,
      params: { service: 'object', method: 'execute_kw', args: ['platform', 2, key, model, method, args, kwargs] },
    }),
  });
  const body = (await r.json()) as { result?: unknown; error?: { data?: { message?: string } } };
  if (body.error) throw new Error(body.error.data?.message ?? 'rpc error');
  return body.result;
}

const SQL = `SELECT l.id, l.name, l.partner_id, p.name AS partner_name FROM erp_platform.crm_lead l
  LEFT JOIN erp_platform.res_partner p ON p.id = l.partner_id ORDER BY l.id LIMIT 80`;

const results: Record<string, Load[]> = { search_read: [], xmlrpc_search_read: [], create: [], sql: [] };

const xmlCall = (key: string) =>
  encodeCall('execute_kw', [
    'platform',
    2,
    key,
    'crm.lead',
    'search_read',
    [[]],
    { fields: ['name', 'partner_id'], limit: 80, order: 'id' },
  ]);
async function xmlrpc(url: string, body: string): Promise<string> {
  const r = await fetch(`${url}/xmlrpc/2/object`, { method: 'POST', headers: { 'content-type': 'text/xml' }, body });
  const text = await r.text();
  if (text.includes('<fault>')) throw new Error('xml-rpc fault');
  return text;
}
const recordsIn = (xml: string) => xml.split('<name>partner_id</name>').length - 1;
const both = (a: Load, b: Load): Load => ({
  rate: (a.rate + b.rate) / 2,
  p50: (a.p50 + b.p50) / 2,
  p99: Math.max(a.p99, b.p99),
  errors: a.errors + b.errors,
});
try {
  for (let round = 1; round <= ROUNDS; round++) {
    const erp = await startErpChild(env);
    try {
      const key = readFileSync(join(dataDir, 'erp-platform-api-key'), 'utf8').trim();
      if (round === 1) {
        for (let i = 0; i < 80; i++) {
          const partner = await rpc(erp.url, key, 'res.partner', 'create', [
            { name: `Customer ${i}`, email: `c${i}@example.com` },
          ]);
          await rpc(erp.url, key, 'crm.lead', 'create', [{ name: `Shutters for ${i}`, partner_id: partner }]);
        }
      }
      const jsonRead = () =>
        runLoad(SECONDS / 2, CONCURRENCY, async () => {
          const rows = (await rpc(erp.url, key, 'crm.lead', 'search_read', [[]], {
            fields: ['name', 'partner_id'],
            limit: 80,
            order: 'id',
          })) as unknown[];
          if (rows.length !== 80) throw new Error(`expected 80 rows, got ${rows.length}`);
        });
      const body = xmlCall(key);
      const checked = (await parseResponse(await xmlrpc(erp.url, body))).value as unknown[];
      if (checked.length !== 80) throw new Error(`expected 80 rows over XML-RPC, got ${checked.length}`);
      const xmlRead = () =>
        runLoad(SECONDS / 2, CONCURRENCY, async () => {
          const n = recordsIn(await xmlrpc(erp.url, body));
          if (n !== 80) throw new Error(`expected 80 rows, got ${n}`);
        });
      // JSON, XML, XML, JSON: a machine getting busier or quieter during the round weighs on both alike.
      const j1 = await jsonRead();
      const x1 = await xmlRead();
      const x2 = await xmlRead();
      const j2 = await jsonRead();
      results.search_read!.push(both(j1, j2));
      results.xmlrpc_search_read!.push(both(x1, x2));
      let n = 0;
      const create = await runLoad(
        SECONDS,
        CONCURRENCY,
        async () => void (await rpc(erp.url, key, 'res.partner', 'create', [{ name: `Bench ${round}-${n++}` }])),
      );
      results.create!.push(create);
    } finally {
      await erp.stop();
    }
    // PGlite's files belong to one process at a time: the SQL round opens them once the ERP has stopped.
    const db: Db = await openDb({ databaseUrl: pg?.url, dataDir, name: 'erp' });
    try {
      results.sql!.push(
        await runLoad(SECONDS, CONCURRENCY, async () => {
          const r = await db.query(SQL);
          if (r.rows.length !== 80) throw new Error(`expected 80 rows, got ${r.rows.length}`);
        }),
      );
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
  console.log(
    `| ${name} | ${loads.map((l) => l.rate.toFixed(0)).join(', ')} | ${median(loads.map((l) => l.rate)).toFixed(0)} | ${median(loads.map((l) => l.p50)).toFixed(1)} | ${median(loads.map((l) => l.p99)).toFixed(1)} | ${loads.reduce((a, l) => a + l.errors, 0)} |`,
  );
}
const ratios = results.search_read!.map((l, i) => l.rate / results.sql![i]!.rate);
console.log(
  `\nratio search_read over JSON-RPC ÷ plain SQL (same read, same run): ${ratios.map((r) => r.toFixed(3)).join(', ')} (median ${median(ratios).toFixed(3)})`,
);
const xmlRatios = results.xmlrpc_search_read!.map((l, i) => l.rate / results.search_read![i]!.rate);
console.log(
  `ratio search_read over XML-RPC ÷ over JSON-RPC (same read, same run): ${xmlRatios.map((r) => r.toFixed(3)).join(', ')} (median ${median(xmlRatios).toFixed(3)}; target ≥ 0.7)`,
);
console.log(
  JSON.stringify({
    bench: 'erp',
    engine: pg ? 'postgres' : 'pglite',
    search_read: median(results.search_read!.map((l) => l.rate)),
    xmlrpc_search_read: median(results.xmlrpc_search_read!.map((l) => l.rate)),
    create: median(results.create!.map((l) => l.rate)),
    sql: median(results.sql!.map((l) => l.rate)),
    ratio: median(ratios),
    xmlrpc_ratio: median(xmlRatios),
  }),
);
if (Object.values(results).some((ls) => ls.some((l) => l.errors > 0))) process.exitCode = 1;
