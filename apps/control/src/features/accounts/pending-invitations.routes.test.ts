/**
 * Open invitations on the team screen: listed with who sent them; resending emails a new link through
 * the email outbox (the old one stops working) and is rate limited; a revoked invitation's link is
 * refused; another tenant neither sees nor touches them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type ControlKit, startControlKit } from '../../testing/control-test-kit.js';
import { emailsTo, post } from './accounts.fixture.js';

let kit: ControlKit;
beforeAll(async () => {
  kit = await startControlKit();
});
afterAll(async () => kit?.close());

type T = Awaited<ReturnType<ControlKit['tenant']>>;
const call = (method: 'GET' | 'POST' | 'DELETE', url: string, token: string) =>
  kit.app.inject({ method, url, headers: { authorization: `Bearer ${token}` } });
const pending = async (t: T, token = t.token) =>
  (await call('GET', `/api/tenants/${t.id}/invitations`, token)).json().items as { id: string; email: string }[];
const accept = (token: string) =>
  post(kit, '/auth/invitations/accept', { token, name: 'New Person', password: 'a brand new password' });

async function invited(t: T, email: string) {
  const r = await post(kit, `/api/tenants/${t.id}/invitations`, { email, role: 'office' }, { token: t.token });
  expect(r.statusCode).toBe(202);
  return (await pending(t)).find((i) => i.email === email)!;
}

describe('open invitations', () => {
  it('lists the open ones with who sent them, never to another tenant', async () => {
    const a = await kit.tenant('pinv-a', 'starter');
    const b = await kit.tenant('pinv-b', 'starter');
    await invited(a, 'one@pinv.test');
    const list = await call('GET', `/api/tenants/${a.id}/invitations`, a.token);
    expect(list.statusCode).toBe(200);
    expect(list.json().items).toEqual([
      expect.objectContaining({ email: 'one@pinv.test', role: 'office', invited_by: a.owner.email }),
    ]);
    expect(list.body).not.toContain('token');
    expect((await call('GET', `/api/tenants/${a.id}/invitations`, b.token)).statusCode).toBe(404);
    expect(await pending(b)).toEqual([]);
    const office = await kit.member(a.id, 'office');
    expect((await call('GET', `/api/tenants/${a.id}/invitations`, office.token)).statusCode).toBe(403);
  });

  it('resends with a new link through the email outbox: the old link stops working; rate limited', async () => {
    const a = await kit.tenant('pinv-resend', 'starter');
    const inv = await invited(a, 'again@pinv.test');
    const first = (await emailsTo(kit, 'again@pinv.test')).at(-1)!;
    const r = await call('POST', `/api/tenants/${a.id}/invitations/${inv.id}/resend`, a.token);
    expect(r.statusCode).toBe(200);
    const mails = await emailsTo(kit, 'again@pinv.test');
    expect(mails).toHaveLength(2);
    const second = mails.at(-1)!;
    expect(second.token).not.toBe(first.token);
    expect((await accept(first.token)).json().code).toBe('INVITATION_INVALID');
    for (let i = 0; i < 2; i++)
      expect((await call('POST', `/api/tenants/${a.id}/invitations/${inv.id}/resend`, a.token)).statusCode).toBe(200);
    const limited = await call('POST', `/api/tenants/${a.id}/invitations/${inv.id}/resend`, a.token);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe('RATE_LIMITED');
    const latest = (await emailsTo(kit, 'again@pinv.test')).at(-1)!;
    expect((await accept(latest.token)).statusCode).toBe(200);
  });

  it('revokes: the emailed link is refused, the list no longer shows it, a second revoke is 404', async () => {
    const a = await kit.tenant('pinv-revoke', 'starter');
    const b = await kit.tenant('pinv-other', 'starter');
    const inv = await invited(a, 'gone@pinv.test');
    const mail = (await emailsTo(kit, 'gone@pinv.test')).at(-1)!;
    expect((await call('DELETE', `/api/tenants/${b.id}/invitations/${inv.id}`, b.token)).statusCode).toBe(404);
    expect((await call('POST', `/api/tenants/${b.id}/invitations/${inv.id}/resend`, b.token)).statusCode).toBe(404);
    expect((await call('DELETE', `/api/tenants/${a.id}/invitations/${inv.id}`, a.token)).statusCode).toBe(204);
    const refused = await accept(mail.token);
    expect(refused.statusCode).toBe(404);
    expect(refused.json().code).toBe('INVITATION_INVALID');
    expect(await pending(a)).toEqual([]);
    expect((await call('DELETE', `/api/tenants/${a.id}/invitations/${inv.id}`, a.token)).statusCode).toBe(404);
    expect((await call('POST', `/api/tenants/${a.id}/invitations/${inv.id}/resend`, a.token)).statusCode).toBe(404);
  });

  it('refuses a malformed id naming the field', async () => {
    const a = await kit.tenant('pinv-bad', 'starter');
    const r = await call('DELETE', `/api/tenants/${a.id}/invitations/nope`, a.token);
    expect(r.statusCode).toBe(422);
    expect(r.json().errors[0]).toMatchObject({ field: 'inv_id' });
  });
});
