/**
 * The certificate tables on PGlite (and PostgreSQL with TEST_DATABASE_URL): claims that two workers
 * never share, leases that free a dead worker's claim, http-01 answers bound to their host and expiry,
 * and the public challenge route.
 */
import { createTestDb, migratePlatform, type TestDb } from '@platform/db';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { TableCertificateCandidates } from './candidates.table.js';
import { CertificateRepo } from './certificate.repo.js';
import { ChallengeRepo } from './challenge.repo.js';
import { acmeChallengeRoutes } from './challenge.routes.js';
import { classifyAcmeError } from './issuance-error.js';

let t: TestDb;
let tenantId: string;
const now = new Date('2030-01-01T00:00:00Z');
const later = (ms: number) => new Date(now.getTime() + ms);

beforeAll(async () => {
  t = await createTestDb(process.env, { migrated: true });
  await migratePlatform(t.db);
  tenantId = (
    await t.db.query<{ id: string }>(`INSERT INTO tenants (slug, name) VALUES ('certs', 'Certs') RETURNING id`)
  ).rows[0]!.id;
});
afterAll(async () => t?.drop());

describe('certificate claims', () => {
  it('two workers claiming at once never get the same domain, and a claim is free again after its lease', async () => {
    const repo = new CertificateRepo(t.db);
    for (let i = 0; i < 6; i++) await repo.ensurePending(`d${i}.claims.test`, tenantId, now);
    const [a, b] = await Promise.all([repo.claimDue(now, later(600_000), 4), repo.claimDue(now, later(600_000), 4)]);
    const names = [...a, ...b].map((r) => r.domain);
    expect(new Set(names).size).toBe(names.length);
    expect(names.length).toBe(6);
    expect(await repo.claimDue(later(1000), later(601_000), 10)).toEqual([]);
    expect((await repo.claimDue(later(600_001), later(1_200_000), 10)).length).toBe(6);
  });

  it("keeps a domain's state when it is proved again", async () => {
    const repo = new CertificateRepo(t.db);
    await repo.ensurePending('kept.claims.test', tenantId, now);
    await repo.markAttemptFailed('kept.claims.test', {
      attempts: 2,
      error: 'refused: x',
      nextAttemptAt: later(5000),
      status: 'pending',
      now,
    });
    await repo.ensurePending('kept.claims.test', tenantId, now);
    expect(await repo.get('kept.claims.test')).toMatchObject({ attempts: 2, last_error: 'refused: x' });
  });

  it('the stand-in candidate table lists proved domains in lower case with their tenant', async () => {
    const table = new TableCertificateCandidates(t.db);
    await table.add('Shop.Example.TEST', tenantId);
    expect(await table.list()).toContainEqual({ domain: 'shop.example.test', tenantId });
  });
});

describe('http-01 answers', () => {
  const token = 'tok_0123456789abcdefghij';

  it('answer only on the domain they were made for, and only until they expire', async () => {
    const repo = new ChallengeRepo(t.db);
    await repo.put({
      token,
      tenantId,
      domain: 'shop.example.test',
      keyAuthorization: `${token}.thumb`,
      expiresAt: later(60_000),
    });
    expect(await repo.find(token, 'shop.example.test', now)).toBe(`${token}.thumb`);
    expect(await repo.find(token, 'other.example.test', now)).toBeUndefined();
    expect(await repo.find(token, 'shop.example.test', later(60_001))).toBeUndefined();
  });

  it('are served at /.well-known/acme-challenge/<token> as text, 404 elsewhere', async () => {
    const repo = new ChallengeRepo(t.db);
    await repo.put({
      token,
      tenantId,
      domain: 'shop.example.test',
      keyAuthorization: `${token}.thumb`,
      expiresAt: new Date(Date.now() + 60_000),
    });
    const app = Fastify();
    await app.register(acmeChallengeRoutes, { db: t.db });
    const ok = await app.inject({
      url: `/.well-known/acme-challenge/${token}`,
      headers: { host: 'shop.example.test' },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toBe(`${token}.thumb`);
    expect(ok.headers['content-type']).toMatch(/^text\/plain/);
    expect(
      (await app.inject({ url: `/.well-known/acme-challenge/${token}`, headers: { host: 'evil.example.test' } }))
        .statusCode,
    ).toBe(404);
    expect(
      (await app.inject({ url: '/.well-known/acme-challenge/..%2f..%2fetc', headers: { host: 'shop.example.test' } }))
        .statusCode,
    ).toBe(404);
    await app.close();
  });
});

describe('ACME failures', () => {
  it('are told apart: rate limits, an unreachable CA, and refusals', () => {
    expect(
      classifyAcmeError(
        Object.assign(new Error('too many certificates'), { type: 'urn:ietf:params:acme:error:rateLimited' }),
      ).kind,
    ).toBe('rate_limited');
    // acme-client keeps only the problem's detail: Let's Encrypt's rate-limit details say "too many …".
    expect(
      classifyAcmeError(new Error('Error creating new order :: too many certificates already issued for "example.com"'))
        .kind,
    ).toBe('rate_limited');
    expect(classifyAcmeError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })).kind).toBe(
      'unavailable',
    );
    expect(classifyAcmeError(new Error('Invalid response from http://x/.well-known/acme-challenge/y: 404')).kind).toBe(
      'refused',
    );
  });
});
