/**
 * The custom-domain DNS check against a real DNS server on loopback (dns2), on PGlite and PostgreSQL:
 * a CNAME to the tenants host is seen, a wrong one waits and fails only after the deadline, a DNS
 * that does not answer is never a failure, a retry restarts the clock, and two workers never check
 * the same domain at once.
 */
import { createTestDb, migratePlatform, type TestDb, withTenant } from '@platform/db';
import { createCnameLookup, restartVerification } from '@platform/tenancy';
import { type CnameDns, startCnameDns } from '@platform/tenancy/test-support/cname-dns.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { DomainCheckService } from './domain-check.service.js';

const H = 3_600_000;
let t: TestDb;
let dns: CnameDns;
let tenantId: string;
let service: DomainCheckService;
const seen: string[] = [];

const policy = { tenantsHost: 'tenants.test', deadlineMs: 72 * H, recheckMs: 300_000, batchSize: 10, leaseMs: 60_000 };

async function addDomain(domain: string, at: Date): Promise<string> {
  const r = await t.db.query<{ id: string }>(
    `INSERT INTO tenant_domains (tenant_id, domain, domain_type, verify_started_at, next_check_at)
     VALUES ($1, $2, 'custom', $3, $3) RETURNING id`,
    [tenantId, domain, at],
  );
  return r.rows[0]!.id;
}

const row = async (domain: string) =>
  (
    await t.db.query<{
      ssl_status: string;
      cname_seen_at: Date | null;
      last_checked_at: Date | null;
      check_error: string | null;
      failure_reason: string | null;
      next_check_at: Date;
    }>('SELECT * FROM tenant_domains WHERE domain = $1', [domain])
  ).rows[0]!;

beforeAll(async () => {
  t = await createTestDb(process.env, { migrated: true });
  await migratePlatform(t.db);
  dns = await startCnameDns();
  tenantId = (await t.db.query<{ id: string }>(`INSERT INTO tenants (slug, name) VALUES ('dns', 'Dns') RETURNING id`))
    .rows[0]!.id;
  const lookup = createCnameLookup({ servers: [dns.server], timeoutMs: 2_000, tries: 1 });
  service = new DomainCheckService(t.db, lookup, policy, async (d) => void seen.push(d.domain));
});
afterAll(async () => {
  await dns?.close();
  await t?.drop();
});

describe('custom-domain DNS check', () => {
  it('records when the CNAME to the tenants host is seen, through the configured DNS server', async () => {
    const start = new Date('2030-01-01T00:00:00Z');
    await addDomain('shop.good.example', start);
    dns.cname.set('shop.good.example', 'Tenants.Test.');
    const now = new Date(start.getTime() + 1000);
    const r = await service.runOnce(now);
    expect(r.seen).toEqual(['shop.good.example']);
    expect(dns.asked).toContain('shop.good.example');
    expect(await row('shop.good.example')).toMatchObject({
      ssl_status: 'pending',
      cname_seen_at: now,
      last_checked_at: now,
      check_error: null,
    });
    expect(seen).toContain('shop.good.example');
    // Seen once is enough: it is not checked again.
    expect((await service.runOnce(new Date(now.getTime() + 3_600_000))).seen).toEqual([]);
  });

  it('keeps a wrong CNAME pending with the reason until the deadline, then fails it with the reason', async () => {
    const start = new Date('2030-02-01T00:00:00Z');
    await addDomain('shop.wrong.example', start);
    dns.cname.set('shop.wrong.example', 'elsewhere.example.net');
    const early = await service.runOnce(new Date(start.getTime() + 1000));
    expect(early.waiting).toEqual(['shop.wrong.example']);
    const r1 = await row('shop.wrong.example');
    expect(r1).toMatchObject({ ssl_status: 'pending', cname_seen_at: null, failure_reason: null });
    expect(r1.check_error).toMatch(/points at elsewhere\.example\.net, not tenants\.test/);
    // Not due again before the recheck interval.
    expect((await service.runOnce(new Date(start.getTime() + 60_000))).waiting).toEqual([]);

    const late = await service.runOnce(new Date(start.getTime() + 72 * H + 1));
    expect(late.failed).toEqual(['shop.wrong.example']);
    const r2 = await row('shop.wrong.example');
    expect(r2.ssl_status).toBe('failed');
    expect(r2.failure_reason).toMatch(/elsewhere\.example\.net.*72 hours/);
  });

  it('treats a missing record as not yet, and a DNS that does not answer as "could not check", never failed', async () => {
    const start = new Date('2030-03-01T00:00:00Z');
    await addDomain('nothing.example', start);
    await addDomain('servfail.example', start);
    await addDomain('silent.example', start);
    dns.servfail.add('servfail.example');
    dns.silent.add('silent.example');
    const past = new Date(start.getTime() + 100 * H);
    const r = await service.runOnce(past);
    expect(r.failed).toEqual(['nothing.example']);
    expect((await row('nothing.example')).failure_reason).toMatch(/no CNAME|does not exist/);
    expect(r.couldNotCheck.sort()).toEqual(['servfail.example', 'silent.example']);
    for (const d of ['servfail.example', 'silent.example']) {
      const x = await row(d);
      expect(x.ssl_status).toBe('pending');
      expect(x.check_error).toMatch(/^could not check/);
      expect(x.next_check_at.getTime()).toBe(past.getTime() + 300_000);
    }
  });

  it("a tenant's retry restarts the deadline and checks at once; the CNAME then set is seen", async () => {
    const id = (await t.db.query<{ id: string }>(`SELECT id FROM tenant_domains WHERE domain = 'shop.wrong.example'`))
      .rows[0]!.id;
    const retryAt = new Date('2030-06-01T00:00:00Z');
    const back = await withTenant(t.db, tenantId, (tx) => restartVerification(tx, tenantId, id, retryAt));
    expect(back).toMatchObject({ ssl_status: 'pending', failure_reason: null });
    dns.cname.set('shop.wrong.example', 'tenants.test');
    expect((await service.runOnce(retryAt)).seen).toEqual(['shop.wrong.example']);
  });

  it('two workers checking at once never take the same domain', async () => {
    const start = new Date('2030-07-01T00:00:00Z');
    for (let i = 0; i < 6; i++) {
      await addDomain(`p${i}.pair.example`, start);
      dns.cname.set(`p${i}.pair.example`, 'tenants.test');
    }
    const now = new Date(start.getTime() + 1000);
    const [a, b] = await Promise.all([service.runOnce(now), service.runOnce(now)]);
    const all = [...a.seen, ...b.seen];
    expect(all.sort()).toEqual([0, 1, 2, 3, 4, 5].map((i) => `p${i}.pair.example`));
  });
});
