/**
 * GET /jobs answers as the session stands now, not as the token says: a session that is no longer live
 * (signed out, member removed) or a suspended tenant sees no job, and a member whose role changed since
 * the token was issued gets the view of the role they have now (tokens live minutes; issue 23 looked at
 * moving this check, and these are what any such change must keep).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { login, PASSWORD } from '../accounts/accounts.fixture.js';
import { type JobsKit, startJobsKit } from './jobs.test-support.js';

let kit: JobsKit;
let a: Awaited<ReturnType<JobsKit['tenant']>>;
const DAY = '2026-11-25';

beforeAll(async () => {
  kit = await startJobsKit();
  a = await kit.tenant('list-session-a', 'professional');
  await kit.erpFor(a.id);
  await kit.createJob(a.token);
}, 120_000);
afterAll(async () => kit?.close());

/** A member of `role` signed in through /auth/login: an access token of a live session. */
async function signedIn(role: 'office' | 'technician') {
  const email = `${role}-${Math.random().toString(36).slice(2, 8)}@list-session.test`;
  const m = await kit.member(a.id, role, email);
  const r = await login(kit, { email, password: PASSWORD });
  expect(r.statusCode).toBe(200);
  return { userId: m.principal.userId, ...(r.json() as { access_token: string; refresh_token: string }) };
}
const list = (token: string, query = `date=${DAY}`) =>
  kit.app.inject({ url: `/jobs?${query}`, headers: kit.auth(token) });
const asOwner = (method: 'PATCH' | 'DELETE', userId: string, payload?: object) =>
  kit.app.inject({
    method,
    url: `/api/tenants/${a.id}/users/${userId}`,
    headers: kit.auth(a.token),
    ...(payload ? { payload } : {}),
  });

describe('GET /jobs and the session standing', () => {
  it('answers a signed-out session 401 TOKEN_INVALID with no job in it', async () => {
    const s = await signedIn('office');
    expect((await list(s.access_token)).json().total).toBe(1);
    const logout = await kit.app.inject({
      method: 'POST',
      url: '/auth/logout',
      payload: { refresh_token: s.refresh_token },
    });
    expect(logout.statusCode).toBe(204);
    const r = await list(s.access_token);
    expect(r.statusCode).toBe(401);
    expect(r.json().code).toBe('TOKEN_INVALID');
    expect(r.body).not.toContain('Dana Whitfield');
    // A query the route refuses still meets the session check first: 401, not 400.
    expect((await list(s.access_token, 'page_size=0')).statusCode).toBe(401);
  });

  it('answers a removed member 401 with no job in it', async () => {
    const s = await signedIn('office');
    expect((await list(s.access_token)).statusCode).toBe(200);
    expect((await asOwner('DELETE', s.userId)).statusCode).toBe(204);
    const r = await list(s.access_token);
    expect(r.statusCode).toBe(401);
    expect(r.body).not.toContain('Dana Whitfield');
  });

  it("answers a suspended tenant's member 403 TENANT_SUSPENDED", async () => {
    const s = await signedIn('office');
    await kit.t.db.query(`UPDATE tenants SET status = 'suspended' WHERE id = $1`, [a.id]);
    try {
      const r = await list(s.access_token);
      expect(r.statusCode).toBe(403);
      expect(r.json().code).toBe('TENANT_SUSPENDED');
    } finally {
      await kit.t.db.query(`UPDATE tenants SET status = 'active' WHERE id = $1`, [a.id]);
    }
  });

  it("gives an office member made technician, whose token still says office, the technician's view", async () => {
    const s = await signedIn('office');
    expect((await list(s.access_token)).json().total).toBe(1);
    expect((await asOwner('PATCH', s.userId, { role: 'technician' })).statusCode).toBe(200);
    const theirs = await kit.createJob(a.token, { technician_id: s.userId });
    expect((await list(a.token)).json().total).toBe(2);
    const r = await list(s.access_token);
    expect(r.statusCode).toBe(200);
    expect(r.json().items.map((j: { id: string }) => j.id)).toEqual([theirs.id]);
  });
});
