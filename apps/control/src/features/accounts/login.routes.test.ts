/**
 * Signing in as a user notices it: the right password gets tokens that work, the wrong one or an
 * unknown address get the very same refusal, a person of several companies is asked which one,
 * a suspended company refuses its people, and repeated failures slow the guesser down (in the
 * database, the same for an address with or without an account).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type ControlKit, startControlKit } from '../../testing/control-test-kit.js';
import { get, login, PASSWORD, post, problemOf, testClock } from './accounts.fixture.js';

let kit: ControlKit;
const clock = testClock();
beforeAll(async () => {
  kit = await startControlKit({}, { clock });
});
afterAll(async () => kit?.close());

describe('POST /auth/login', () => {
  it('signs an owner in with tokens that open their own company', async () => {
    const a = await kit.tenant('login-a');
    const r = await login(kit, { email: 'Owner@login-a.test', password: PASSWORD }, '10.0.0.1');
    expect(r.statusCode).toBe(200);
    const body = r.json();
    expect(body).toMatchObject({
      token_type: 'Bearer',
      expires_in: 900,
      tenant: { id: a.id, slug: 'login-a', name: 'Tenant login-a' },
      user: { id: a.owner.userId, email: 'owner@login-a.test', role: 'owner' },
    });
    expect(body.refresh_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const me = await get(kit, '/auth/me', body.access_token);
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({
      role: 'owner',
      tenant: { slug: 'login-a' },
      user: { email: 'owner@login-a.test' },
    });
    expect((await get(kit, `/api/tenants/${a.id}/plan`, body.access_token)).statusCode).toBe(200);
  });

  it('answers an unknown address and a wrong password with the same status and body', async () => {
    await kit.tenant('login-enum');
    const unknown = await login(kit, { email: 'nobody@login-enum.test', password: PASSWORD }, '10.0.1.1');
    const wrong = await login(kit, { email: 'owner@login-enum.test', password: 'not the password' }, '10.0.1.2');
    const malformed = await login(kit, { email: 'not-an-email', password: PASSWORD }, '10.0.1.3');
    expect(unknown.statusCode).toBe(401);
    expect(problemOf(unknown)).toEqual(problemOf(wrong));
    expect(problemOf(unknown)).toEqual(problemOf(malformed));
    expect(problemOf(wrong)).toMatchObject({ code: 'LOGIN_FAILED' });
  });

  it('asks a person of several companies which one, only once the password is right', async () => {
    const x = await kit.tenant('multi-x');
    const y = await kit.tenant('multi-y');
    const email = 'both@multi.test';
    await kit.member(x.id, 'office', email);
    await kit.member(y.id, 'technician', email);
    const wrong = await login(kit, { email, password: 'not the password' }, '10.0.2.1');
    expect(wrong.json().code).toBe('LOGIN_FAILED');
    expect(wrong.body).not.toContain('multi-x');
    const ask = await login(kit, { email, password: PASSWORD }, '10.0.2.1');
    expect(ask.statusCode).toBe(409);
    expect(ask.json()).toMatchObject({ code: 'TENANT_REQUIRED' });
    expect(ask.json().tenants).toEqual([
      { slug: 'multi-x', name: 'Tenant multi-x' },
      { slug: 'multi-y', name: 'Tenant multi-y' },
    ]);
    const chosen = await login(kit, { email, password: PASSWORD, tenant: 'multi-y' }, '10.0.2.1');
    expect(chosen.statusCode).toBe(200);
    expect(chosen.json()).toMatchObject({ tenant: { id: y.id }, user: { role: 'technician' } });
    const notMine = await login(kit, { email, password: PASSWORD, tenant: 'login-a' }, '10.0.2.1');
    expect(problemOf(notMine)).toEqual(problemOf(wrong));
  });

  it("keeps a suspended or still-provisioning company's people out", async () => {
    const s = await kit.tenant('login-suspended');
    await kit.t.db.query(`UPDATE tenants SET status = 'suspended' WHERE id = $1`, [s.id]);
    const r = await login(kit, { email: 'owner@login-suspended.test', password: PASSWORD }, '10.0.3.1');
    expect(r.statusCode).toBe(403);
    expect(r.json().code).toBe('TENANT_SUSPENDED');
    const wrong = await login(kit, { email: 'owner@login-suspended.test', password: 'nope nope nope' }, '10.0.3.1');
    expect(wrong.json().code).toBe('LOGIN_FAILED');
    const p = await kit.tenant('login-provisioning');
    await kit.t.db.query(`UPDATE tenants SET status = 'provisioning' WHERE id = $1`, [p.id]);
    const prov = await login(kit, { email: 'owner@login-provisioning.test', password: PASSWORD }, '10.0.3.2');
    expect(prov.json().code).toBe('LOGIN_FAILED');
  });

  it('writes every sign-in and every failed one to the company audit log with the address', async () => {
    const t = await kit.tenant('login-audit');
    await login(kit, { email: 'owner@login-audit.test', password: 'wrong wrong wrong' }, '10.0.4.7');
    await login(kit, { email: 'owner@login-audit.test', password: PASSWORD }, '10.0.4.8');
    const audit = await get(kit, '/api/audit?action=auth.login', t.token);
    expect(audit.json().items).toEqual([expect.objectContaining({ action: 'auth.login', ip: '10.0.4.8' })]);
    const failed = await get(kit, '/api/audit?action=auth.login_failed', t.token);
    expect(failed.json().items).toEqual([
      expect.objectContaining({ action: 'auth.login_failed', ip: '10.0.4.7', detail: { reason: 'password' } }),
    ]);
    expect(JSON.stringify(failed.json())).not.toContain('wrong wrong');
  });

  it('refuses a body without the fields it needs, naming them', async () => {
    const r = await post(kit, '/auth/login', { email: 'x@y.test' });
    expect(r.statusCode).toBe(422);
    expect(r.json().errors).toEqual([expect.objectContaining({ field: 'password' })]);
  });
});

describe('backoff after failed sign-ins', () => {
  it('locks an account after 5 failures, also against the right password, and lets it in after the wait', async () => {
    await kit.tenant('lock-a');
    const email = 'owner@lock-a.test';
    for (let i = 0; i < 5; i++)
      expect((await login(kit, { email, password: `wrong ${i} attempt` }, `10.1.0.${i}`)).statusCode).toBe(401);
    const locked = await login(kit, { email, password: PASSWORD }, '10.1.0.9');
    expect(locked.statusCode).toBe(429);
    expect(locked.json().code).toBe('LOGIN_THROTTLED');
    expect(Number(locked.headers['retry-after'])).toBe(30);
    clock.advance(31);
    expect((await login(kit, { email, password: PASSWORD }, '10.1.0.9')).statusCode).toBe(200);
    // A success starts the count again: five more tries before the next lock.
    for (let i = 0; i < 4; i++)
      expect((await login(kit, { email, password: 'wrong again' }, '10.1.0.10')).statusCode).toBe(401);
    expect((await login(kit, { email, password: PASSWORD }, '10.1.0.10')).statusCode).toBe(200);
  });

  it('doubles the wait with each further failure', async () => {
    const email = 'nobody-doubling@lock.test';
    for (let i = 0; i < 5; i++) await login(kit, { email, password: 'guess guess' }, '10.2.0.1');
    clock.advance(31);
    expect((await login(kit, { email, password: 'guess again' }, '10.2.0.2')).statusCode).toBe(401);
    const r = await login(kit, { email, password: 'guess again' }, '10.2.0.3');
    expect(Number(r.headers['retry-after'])).toBe(60);
  });

  it('throttles an address without an account exactly like one with an account', async () => {
    await kit.tenant('lock-same');
    const tries = async (email: string, ip: string) => {
      for (let i = 0; i < 5; i++) await login(kit, { email, password: 'guess guess' }, ip);
      return login(kit, { email, password: 'guess guess' }, ip);
    };
    const known = await tries('owner@lock-same.test', '10.3.0.1');
    const unknown = await tries('ghost@lock-same.test', '10.3.0.2');
    expect(known.statusCode).toBe(429);
    expect(problemOf(known)).toEqual(problemOf(unknown));
    expect(known.headers['retry-after']).toBe(unknown.headers['retry-after']);
  });

  it('slows down one address trying many accounts (20 failures)', async () => {
    for (let i = 0; i < 20; i++)
      expect((await login(kit, { email: `spray${i}@lock.test`, password: 'guess guess' }, '10.4.0.1')).statusCode).toBe(
        401,
      );
    const r = await login(kit, { email: 'spray-next@lock.test', password: 'guess guess' }, '10.4.0.1');
    expect(r.statusCode).toBe(429);
    expect(r.headers['retry-after']).toBeDefined();
    // Another address is not held back by it.
    expect((await login(kit, { email: 'spray-next@lock.test', password: 'guess guess' }, '10.4.0.2')).statusCode).toBe(
      401,
    );
  });
});
