/**
 * Inviting people as an owner or admin notices it: the invitee gets an email whose link signs them
 * in once, with the role they were invited with; the answer never says whether the address already
 * has an account; an existing account accepts with its password; plan limits hold at sending and
 * at accepting; only owners make owners.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type ControlKit, startControlKit } from '../../testing/control-test-kit.js';
import { emailsTo, get, login, PASSWORD, post } from './accounts.fixture.js';

let kit: ControlKit;
beforeAll(async () => {
  kit = await startControlKit();
});
afterAll(async () => kit?.close());

const invite = (tenantId: string, token: string, body: object) =>
  post(kit, `/api/tenants/${tenantId}/invitations`, body, { token });
const accept = (body: object) => post(kit, '/auth/invitations/accept', body);

describe('invitations', () => {
  it('emails a link that makes a new account with the invited role and signs it in, once', async () => {
    const t = await kit.tenant('inv-new', 'starter');
    const r = await invite(t.id, t.token, { email: 'New.Tech@Inv.test', role: 'technician' });
    expect(r.statusCode).toBe(202);
    expect(r.json()).toMatchObject({ email: 'new.tech@inv.test', role: 'technician' });
    const [mail] = await emailsTo(kit, 'new.tech@inv.test');
    expect(mail).toMatchObject({ template: 'invitation' });
    expect(mail!.link).toBe(`https://inv-new.tenants.localhost/account/accept-invitation#token=${mail!.token}`);
    expect(mail!.text).toContain('as technician');
    const ok = await accept({ token: mail!.token, name: 'Nia Tech', password: 'a brand new password' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({
      tenant: { id: t.id },
      user: { email: 'new.tech@inv.test', name: 'Nia Tech', role: 'technician' },
    });
    expect((await get(kit, '/auth/me', ok.json().access_token)).json().role).toBe('technician');
    expect((await login(kit, { email: 'new.tech@inv.test', password: 'a brand new password' })).statusCode).toBe(200);
    const again = await accept({ token: mail!.token, name: 'Nia Tech', password: 'a brand new password' });
    expect(again.statusCode).toBe(404);
    expect(again.json().code).toBe('INVITATION_INVALID');
    // The token is stored only as its SHA-256.
    const stored = await kit.t.db.query(`SELECT 1 FROM invitations WHERE token_hash = sha256(convert_to($1, 'UTF8'))`, [
      mail!.token,
    ]);
    expect(stored.rowCount).toBe(1);
  });

  it('answers the same whether or not the address already has an account elsewhere', async () => {
    const other = await kit.tenant('inv-elsewhere');
    const t = await kit.tenant('inv-same', 'starter');
    const known = await invite(t.id, t.token, { email: other.owner.email, role: 'office' });
    const unknown = await invite(t.id, t.token, { email: 'stranger@inv.test', role: 'office' });
    expect(known.statusCode).toBe(202);
    expect(Object.keys(known.json())).toEqual(Object.keys(unknown.json()));
    expect(known.json().expires_at).toMatch(/^\d{4}-/);
  });

  it('lets an existing account accept with its current password (and not with another)', async () => {
    const home = await kit.tenant('inv-home');
    const t = await kit.tenant('inv-join', 'starter');
    await invite(t.id, t.token, { email: home.owner.email, role: 'admin' });
    const mail = (await emailsTo(kit, home.owner.email)).at(-1)!;
    const wrong = await accept({ token: mail.token, password: 'not my password' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().code).toBe('LOGIN_FAILED');
    const ok = await accept({ token: mail.token, password: PASSWORD });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ tenant: { id: t.id }, user: { role: 'admin' } });
    // Now in two companies: sign-in asks which.
    expect((await login(kit, { email: home.owner.email, password: PASSWORD })).json().code).toBe('TENANT_REQUIRED');
  });

  it('lets an account that never had a password choose one when accepting', async () => {
    const elsewhere = await kit.tenant('inv-nopw-home');
    await kit.t.db.transaction((q) =>
      kit.deps.members.ensureMember(q, elsewhere.id, { email: 'nopw@inv.test', role: 'office' }),
    );
    const t = await kit.tenant('inv-nopw', 'starter');
    await invite(t.id, t.token, { email: 'nopw@inv.test', role: 'office' });
    const mail = (await emailsTo(kit, 'nopw@inv.test'))[0]!;
    const r = await accept({ token: mail.token, name: 'No Password Yet', password: 'finally a password' });
    expect(r.statusCode).toBe(200);
    expect(r.json().user).toMatchObject({ name: 'No Password Yet', role: 'office' });
    const again = await login(kit, { email: 'nopw@inv.test', password: 'finally a password', tenant: 'inv-nopw' });
    expect(again.statusCode).toBe(200);
  });

  it('asks a new account for a name and a long enough password, naming the fields', async () => {
    const t = await kit.tenant('inv-rules', 'starter');
    await invite(t.id, t.token, { email: 'rules@inv.test', role: 'office' });
    const mail = (await emailsTo(kit, 'rules@inv.test'))[0]!;
    const r = await accept({ token: mail.token, password: 'short' });
    expect(r.statusCode).toBe(422);
    expect(
      r
        .json()
        .errors.map((e: { field: string }) => e.field)
        .sort(),
    ).toEqual(['name', 'password']);
    expect((await accept({ token: mail.token, name: 'Rule Follower', password: 'long enough now' })).statusCode).toBe(
      200,
    );
  });

  it('replaces a pending invitation by a new one of the same address', async () => {
    const t = await kit.tenant('inv-replace', 'starter');
    await invite(t.id, t.token, { email: 'twice@inv.test', role: 'office' });
    await invite(t.id, t.token, { email: 'twice@inv.test', role: 'admin' });
    const [first, second] = await emailsTo(kit, 'twice@inv.test');
    expect((await accept({ token: first!.token, name: 'T', password: 'long enough now' })).json().code).toBe(
      'INVITATION_INVALID',
    );
    expect((await accept({ token: second!.token, name: 'T', password: 'long enough now' })).json().user.role).toBe(
      'admin',
    );
  });

  it('checks the plan when sending and again when accepting', async () => {
    const t = await kit.tenant('inv-limit'); // Free: 2 users, 1 technician
    await invite(t.id, t.token, { email: 'first@inv-limit.test', role: 'office' });
    await invite(t.id, t.token, { email: 'second@inv-limit.test', role: 'office' });
    const [a] = await emailsTo(kit, 'first@inv-limit.test');
    const [b] = await emailsTo(kit, 'second@inv-limit.test');
    expect((await accept({ token: a!.token, name: 'A', password: 'long enough now' })).statusCode).toBe(200);
    const late = await accept({ token: b!.token, name: 'B', password: 'long enough now' });
    expect(late.statusCode).toBe(403);
    expect(late.json()).toMatchObject({ code: 'PLAN_LIMIT_REACHED', limit: 'users', plan: 'free' });
    // Nothing half-made: no account for B, and the invitation is still usable after an upgrade.
    expect((await kit.t.db.query(`SELECT 1 FROM users WHERE email = 'second@inv-limit.test'`)).rowCount).toBe(0);
    const send = await invite(t.id, t.token, { email: 'third@inv-limit.test', role: 'office' });
    expect(send.json()).toMatchObject({ code: 'PLAN_LIMIT_REACHED', limit: 'users' });
    await kit.t.db.query(`UPDATE tenants SET plan = 'starter' WHERE id = $1`, [t.id]);
    expect((await accept({ token: b!.token, name: 'B', password: 'long enough now' })).statusCode).toBe(200);
  });

  it('lets only an owner invite an owner, and no technician or office user invite anyone', async () => {
    const t = await kit.tenant('inv-roles', 'starter');
    const admin = await kit.member(t.id, 'admin');
    const office = await kit.member(t.id, 'office');
    const r = await invite(t.id, admin.token, { email: 'boss@inv.test', role: 'owner' });
    expect(r.statusCode).toBe(403);
    expect(r.json()).toMatchObject({ code: 'ROLE_FORBIDDEN', required_roles: ['owner'] });
    expect((await invite(t.id, admin.token, { email: 'helper@inv.test', role: 'office' })).statusCode).toBe(202);
    expect((await invite(t.id, office.token, { email: 'helper2@inv.test', role: 'office' })).statusCode).toBe(403);
    expect((await invite(t.id, t.token, { email: 'boss@inv.test', role: 'owner' })).statusCode).toBe(202);
  });

  it('refuses bad input naming the field and rule', async () => {
    const t = await kit.tenant('inv-input');
    const r = await invite(t.id, t.token, { email: 'not-an-email', role: 'king' });
    expect(r.statusCode).toBe(422);
    expect(
      r
        .json()
        .errors.map((e: { field: string }) => e.field)
        .sort(),
    ).toEqual(['email', 'role']);
    expect((await accept({ token: 'x', name: 'n', password: 'long enough now' })).json().code).toBe(
      'INVITATION_INVALID',
    );
  });
});
