/**
 * Staying signed in and signing out as a user notices it: a refresh token works once and hands over
 * its successor; a token presented twice ends the whole session (both parties are signed out); two
 * refreshes racing with one token give exactly one success; signing out stops the session's tokens
 * at once, everywhere with logout-all; tokens expire.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type ControlKit, startControlKit } from '../../testing/control-test-kit.js';
import { get, login, PASSWORD, post, testClock } from './accounts.fixture.js';

let kit: ControlKit;
const clock = testClock();
beforeAll(async () => {
  kit = await startControlKit({}, { clock });
});
afterAll(async () => kit?.close());

const signIn = async (slug: string, ip = '10.9.0.1') => {
  const r = await login(kit, { email: `owner@${slug}.test`, password: PASSWORD }, ip);
  expect(r.statusCode).toBe(200);
  return r.json() as { access_token: string; refresh_token: string; tenant: { id: string } };
};
const refresh = (token: string) => post(kit, '/auth/refresh', { refresh_token: token });

describe('refresh tokens', () => {
  it('rotate: each refresh answers new tokens and the old refresh token stops working', async () => {
    await kit.tenant('sess-rotate');
    const s = await signIn('sess-rotate');
    const r1 = await refresh(s.refresh_token);
    expect(r1.statusCode).toBe(200);
    const next = r1.json();
    expect(next).toMatchObject({ token_type: 'Bearer', tenant: { slug: 'sess-rotate' }, user: { role: 'owner' } });
    expect(next.refresh_token).not.toBe(s.refresh_token);
    expect((await get(kit, '/auth/me', next.access_token)).statusCode).toBe(200);
    const r2 = await refresh(next.refresh_token);
    expect(r2.statusCode).toBe(200);
  });

  it('end the whole session when a used token comes back (TOKEN_REUSED), stopping its access tokens too', async () => {
    const t = await kit.tenant('sess-reuse');
    const s = await signIn('sess-reuse');
    const legit = (await refresh(s.refresh_token)).json();
    const replay = await refresh(s.refresh_token);
    expect(replay.statusCode).toBe(401);
    expect(replay.json().code).toBe('TOKEN_REUSED');
    expect((await refresh(legit.refresh_token)).json().code).toBe('TOKEN_INVALID');
    expect((await get(kit, '/auth/me', legit.access_token)).json().code).toBe('TOKEN_INVALID');
    const audit = await get(kit, '/api/audit?action=auth.token_reuse', t.token);
    expect(audit.json().total).toBe(1);
    // Another session of the same person is not touched.
    const other = await signIn('sess-reuse');
    expect((await refresh(other.refresh_token)).statusCode).toBe(200);
  });

  it('let exactly one of two simultaneous refreshes with the same token succeed', async () => {
    await kit.tenant('sess-race');
    const s = await signIn('sess-race');
    const both = await Promise.all([refresh(s.refresh_token), refresh(s.refresh_token)]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 401]);
  });

  it('refuse unknown, malformed and empty tokens without telling which', async () => {
    const unknown = await refresh('A'.repeat(43));
    const malformed = await refresh('not a token');
    expect(unknown.json().code).toBe('TOKEN_INVALID');
    expect(malformed.json().code).toBe('TOKEN_INVALID');
    expect((await post(kit, '/auth/refresh', { refresh_token: '' })).statusCode).toBe(422);
  });

  it('expire 30 days after their issue, and a session ends 90 days after sign-in however often refreshed', async () => {
    await kit.tenant('sess-expiry');
    const s = await signIn('sess-expiry');
    clock.advance(30 * 86_400 + 1);
    expect((await refresh(s.refresh_token)).json().code).toBe('TOKEN_INVALID');
    let token = (await signIn('sess-expiry')).refresh_token;
    for (let i = 0; i < 3; i++) {
      clock.advance(29 * 86_400);
      const r = await refresh(token);
      expect(r.statusCode).toBe(200);
      token = r.json().refresh_token;
    }
    // Day 91: the last token is 4 days old (well within 30), but the session's 90 days are over.
    clock.advance(4 * 86_400);
    expect((await refresh(token)).json().code).toBe('TOKEN_INVALID');
  });
});

describe('signing out', () => {
  it("logout ends that session only: its refresh and access tokens stop, the person's other session goes on", async () => {
    await kit.tenant('sess-logout');
    const phone = await signIn('sess-logout');
    const laptop = await signIn('sess-logout');
    const r = await post(kit, '/auth/logout', { refresh_token: phone.refresh_token });
    expect(r.statusCode).toBe(204);
    expect((await refresh(phone.refresh_token)).statusCode).toBe(401);
    expect((await get(kit, '/auth/me', phone.access_token)).statusCode).toBe(401);
    expect((await get(kit, '/auth/me', laptop.access_token)).statusCode).toBe(200);
    // Signing out twice, or with a token nobody knows, is not an error.
    expect((await post(kit, '/auth/logout', { refresh_token: phone.refresh_token })).statusCode).toBe(204);
    expect((await post(kit, '/auth/logout', { refresh_token: 'B'.repeat(43) })).statusCode).toBe(204);
  });

  it("logout-all ends every session of the person in this company at once, and no one else's", async () => {
    const t = await kit.tenant('sess-all');
    const office = await kit.member(t.id, 'office', 'office@sess-all.test');
    const a = await signIn('sess-all');
    const b = await signIn('sess-all');
    const colleague = (await login(kit, { email: office.principal.email, password: PASSWORD })).json();
    expect((await post(kit, '/auth/logout-all', {}, { token: a.access_token })).statusCode).toBe(204);
    for (const s of [a, b]) {
      expect((await get(kit, '/auth/me', s.access_token)).statusCode).toBe(401);
      expect((await refresh(s.refresh_token)).statusCode).toBe(401);
    }
    expect((await get(kit, '/auth/me', colleague.access_token)).statusCode).toBe(200);
    expect((await post(kit, '/auth/logout-all', {})).statusCode).toBe(401);
  });
});
