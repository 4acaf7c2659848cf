/**
 * npm run bench:resolver: what host → tenant resolution costs a request. The same trivial route is
 * served twice over real HTTP (keep-alive, loopback), once behind the landing host's tenant hook
 * (@platform/tenancy's resolver with its in-process cache) and once without it; requests cycle over
 * TENANTS platform subdomains. Prints both rates, the per-request difference and the ratio, all
 * measured in this run; then the cost of a cache miss (a database look-up), which a process pays once
 * per host after each tenant or domain change. BENCH_REQUESTS (default 20000) per variant.
 */
import { Agent, request } from 'node:http';

import { createTestDb, migratePlatform } from '@platform/db';
import { TenantHostResolver } from '@platform/tenancy';
import Fastify, { type FastifyInstance } from 'fastify';

import { registerTenantHost } from '../../apps/landing/src/features/tenancy/tenant-host.hook.js';

const REQUESTS = Math.max(1000, Number(process.env.BENCH_REQUESTS ?? 20_000));
const CONCURRENCY = 16;
const TENANTS = 50;

async function serve(resolver: TenantHostResolver | undefined): Promise<{ app: FastifyInstance; port: number }> {
  const app = Fastify({ logger: false });
  if (resolver) registerTenantHost(app, resolver);
  app.get('/bench', (req, reply) => reply.send({ ok: true, tenant: req.tenant?.slug ?? null }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, port: (app.server.address() as { port: number }).port };
}

async function drive(port: number): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  let next = 0;
  const one = (i: number) =>
    new Promise<void>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port, path: '/bench', agent, headers: { host: `t${i % TENANTS}.tenants.bench` } },
        (res) => {
          if (res.statusCode !== 200) reject(new Error(`status ${res.statusCode}`));
          res.resume();
          res.on('end', () => resolve());
        },
      );
      req.on('error', reject);
      req.end();
    });
  const worker = async () => {
    while (next < REQUESTS) await one(next++);
  };
  const start = process.hrtime.bigint();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  agent.destroy();
  return REQUESTS / seconds;
}

const t = await createTestDb();
await migratePlatform(t.db);
for (let i = 0; i < TENANTS; i++) await t.db.query(`INSERT INTO tenants (slug, name) VALUES ($1, $1)`, [`t${i}`]);
const resolver = new TenantHostResolver(t.db, { tenantsHost: 'tenants.bench' });
await resolver.start();
const withHook = await serve(resolver);
const without = await serve(undefined);
await drive(withHook.port); // warm-up: JIT and the cache
await drive(without.port);
const rateWithout = await drive(without.port);
const rateWith = await drive(withHook.port);

// Cache misses: every look-up after an invalidation goes to the database.
const misses = 500;
const start = process.hrtime.bigint();
for (let i = 0; i < misses; i++) {
  resolver.invalidate();
  await resolver.resolve(`t${i % TENANTS}.tenants.bench`);
}
const missUs = Number(process.hrtime.bigint() - start) / 1e3 / misses;

const us = (rate: number) => 1e6 / rate;
console.log(`engine: ${t.url ? 'PostgreSQL' : 'PGlite'}; ${REQUESTS} requests per variant, ${CONCURRENCY} in flight`);
console.log(`route without resolution: ${rateWithout.toFixed(0)} req/s (${us(rateWithout).toFixed(1)} µs/req)`);
console.log(`route with resolution:    ${rateWith.toFixed(0)} req/s (${us(rateWith).toFixed(1)} µs/req)`);
console.log(`resolver cost per request (cached): ${(us(rateWith) - us(rateWithout)).toFixed(1)} µs`);
console.log(`ratio with/without (time per request): ${(rateWithout / rateWith).toFixed(3)}`);
console.log(`cache miss (database look-up): ${missUs.toFixed(0)} µs`);
await withHook.app.close();
await without.app.close();
await resolver.stop();
await t.drop();
