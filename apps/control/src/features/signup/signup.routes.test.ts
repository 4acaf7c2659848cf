/**
 * POST /signup on a real embedded ERP: a company on the Free plan with its own ERP database,
 * subdomain and owner, signed in; and every abuse case refused with a clear 4xx that leaves no
 * tenant row, no ERP database and no account behind.
 */
import { withTenant } from '@platform/db';
import { findTenantByDomain } from '@platform/tenancy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type SignupKit, startSignupKit } from './signup.test-support.js';

let kit: SignupKit;
beforeAll(async () => {
  kit = await startSignupKit();
}, 120_000);
afterAll(async () => kit?.close());

async function leftBehind(slug: string, email: string) {
  const tenants = await kit.t.db.query('SELECT 1 FROM tenants WHERE slug = $1', [slug]);
  const users = await kit.t.db.query('SELECT 1 FROM users WHERE email = $1', [email]);
  const dbs = (await kit.databases.current.list()).filter((d) => d === `t_${slug.replace(/-/g, '_')}`);
  return { tenants: tenants.rows.length, users: users.rows.length, dbs: dbs.length };
}

describe('signing up', { timeout: 120_000 }, () => {
  it('makes a Free company with its own ERP database and subdomain, and signs the owner in', async () => {
    const r = await kit.signUp(kit.fields('acme-blinds'));
    expect(r.statusCode).toBe(201);
    const body = r.json();
    expect(body).toMatchObject({
      token_type: 'Bearer',
      tenant: { slug: 'acme-blinds', name: 'Blinds acme-blinds' },
      user: { email: 'owner@acme-blinds.test', name: 'Olive Owner', role: 'owner' },
      email_verified: false,
    });
    const me = await kit.app.inject({ url: '/auth/me', headers: { authorization: `Bearer ${body.access_token}` } });
    expect(me.json()).toMatchObject({ role: 'owner', email_verified: false, tenant: { status: 'active' } });
    const plan = await kit.app.inject({
      url: `/api/tenants/${body.tenant.id}/plan`,
      headers: { authorization: `Bearer ${body.access_token}` },
    });
    expect(plan.json()).toMatchObject({ plan: 'free' });
    expect(await kit.databases.current.list()).toContain('t_acme_blinds');
    expect(await findTenantByDomain(kit.t.db, 'acme-blinds.tenants.localhost')).toMatchObject({ id: body.tenant.id });
    expect(await kit.verificationToken('owner@acme-blinds.test')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const audit = await withTenant(kit.t.db, body.tenant.id, (tx) =>
      tx.query<{ action: string }>('SELECT action FROM audit_log'),
    );
    expect(audit.rows.map((a) => a.action)).toEqual(expect.arrayContaining(['tenant.create', 'tenant.signup']));
  });

  it('shows the signed-up owner only their own company', async () => {
    const other = await kit.tenant('other-co');
    const mine = (await kit.signUp(kit.fields('bravo-shades'))).json();
    const auth = { authorization: `Bearer ${mine.access_token}` };
    expect((await kit.app.inject({ url: `/api/tenants/${other.id}`, headers: auth })).statusCode).toBe(404);
    expect((await kit.app.inject({ url: `/api/tenants/${other.id}/users`, headers: auth })).statusCode).toBe(404);
    const users = await kit.app.inject({ url: `/api/tenants/${mine.tenant.id}/users`, headers: auth });
    expect(users.json().items.map((u: { email: string }) => u.email)).toEqual(['owner@bravo-shades.test']);
  });

  it('answers whether a slug is available, and why not', async () => {
    const check = async (slug: string) =>
      (await kit.app.inject({ url: `/signup/slug-availability?slug=${encodeURIComponent(slug)}` })).json();
    await kit.signUp(kit.fields('charlie-sun'));
    expect(await check('delta-new')).toEqual({ slug: 'delta-new', available: true });
    expect(await check('charlie-sun')).toMatchObject({ available: false, reason: 'taken' });
    expect(await check('www')).toMatchObject({ available: false, reason: 'reserved' });
    expect(await check('Bad Slug')).toMatchObject({ available: false, reason: 'syntax' });
  });
});

describe('sign-up abuse', { timeout: 120_000 }, () => {
  it('refuses the same email twice with 409, leaving no second company', async () => {
    expect((await kit.signUp(kit.fields('echo-one', 'twice@example.test'))).statusCode).toBe(201);
    const again = await kit.signUp(kit.fields('echo-two', 'TWICE@example.test'));
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'EMAIL_TAKEN' });
    expect(again.json().detail).toMatch(/already has an account/);
    expect(await leftBehind('echo-two', 'nobody')).toEqual({ tenants: 0, users: 0, dbs: 0 });
  });

  it('refuses a taken slug (409) and a reserved one (422 naming the slug)', async () => {
    await kit.signUp(kit.fields('foxtrot-blinds'));
    const taken = await kit.signUp(kit.fields('foxtrot-blinds', 'second@example.test'));
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ code: 'TENANT_SLUG_TAKEN' });
    const reserved = await kit.signUp(kit.fields('www', 'www@example.test'));
    expect(reserved.statusCode).toBe(422);
    expect(reserved.json().errors).toContainEqual(expect.objectContaining({ field: 'slug', rule: 'reserved' }));
    expect(await leftBehind('www', 'www@example.test')).toEqual({ tenants: 0, users: 0, dbs: 0 });
    expect((await kit.t.db.query(`SELECT 1 FROM users WHERE email = 'second@example.test'`)).rows).toHaveLength(0);
  });

  // http-kit's input handling refuses a NUL before validation, as on every endpoint (422, the field named).
  it('refuses a NUL in every field with a 4xx naming the field', async () => {
    const good = kit.fields('golf-nul', 'nul@example.test');
    for (const field of ['company_name', 'slug', 'owner_name', 'email', 'password', 'captcha_token']) {
      const r = await kit.signUp({ ...good, [field]: `${String(good[field])}\u0000x` });
      expect(r.statusCode, field).toBe(422);
      expect(r.json().errors, field).toEqual([expect.objectContaining({ field, rule: 'no_nul_character' })]);
    }
    expect(await leftBehind('golf-nul', 'nul@example.test')).toEqual({ tenants: 0, users: 0, dbs: 0 });
  });

  it('refuses a missing or failed bot check', async () => {
    const { captcha_token: _t, ...without } = kit.fields('hotel-bot');
    expect((await kit.signUp(without)).json()).toMatchObject({ code: 'CAPTCHA_MISSING' });
    const bot = await kit.signUp({ ...without, captcha_token: 'robot' });
    expect(bot.json()).toMatchObject({ code: 'CAPTCHA_REJECTED' });
    expect(await leftBehind('hotel-bot', 'owner@hotel-bot.test')).toEqual({ tenants: 0, users: 0, dbs: 0 });
  });

  it('answers 429 with Retry-After after five sign-ups a minute from one address', async () => {
    const codes: number[] = [];
    let retryAfter: string | undefined;
    for (let i = 0; i < 50; i++) {
      const r = await kit.signUp({ ...kit.fields(`india-${i}`), captcha_token: 'robot' }, '203.0.113.9');
      codes.push(r.statusCode);
      if (r.statusCode === 429) retryAfter ??= String(r.headers['retry-after']);
    }
    expect(codes.slice(0, 5).every((c) => c !== 429)).toBe(true);
    expect(codes.slice(5).every((c) => c === 429)).toBe(true);
    expect(Number(retryAfter)).toBeGreaterThan(0);
    expect((await kit.t.db.query(`SELECT 1 FROM tenants WHERE slug LIKE 'india-%'`)).rows).toHaveLength(0);
  });
});
