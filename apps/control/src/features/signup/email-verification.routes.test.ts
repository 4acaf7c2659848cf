/**
 * The sign-up's email verification: the emailed one-use link verifies the owner, a resend replaces
 * the link, and until verified the owner may set up the company but not send quotes or invite
 * (403 EMAIL_NOT_VERIFIED). Accounts made otherwise (the CLI, invitations) are verified already.
 */
import { randomUUID } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type SignupKit, startSignupKit } from './signup.test-support.js';

let kit: SignupKit;
beforeAll(async () => {
  kit = await startSignupKit();
}, 120_000);
afterAll(async () => kit?.close());

async function signedUp(slug: string) {
  const r = (await kit.signUp(kit.fields(slug))).json<{ access_token: string; tenant: { id: string } }>();
  return { tenantId: r.tenant.id, auth: { authorization: `Bearer ${r.access_token}` }, email: `owner@${slug}.test` };
}

const verify = (token: string | undefined) =>
  kit.app.inject({ method: 'POST', url: '/auth/verify-email', payload: { token } });
const invite = (o: { tenantId: string; auth: Record<string, string> }) =>
  kit.app.inject({
    method: 'POST',
    url: `/api/tenants/${o.tenantId}/invitations`,
    headers: o.auth,
    payload: { email: `tech-${randomUUID().slice(0, 8)}@example.test`, role: 'technician' },
  });
const sendQuote = (o: { auth: Record<string, string> }) =>
  kit.app.inject({ method: 'POST', url: `/sales/quotes/${randomUUID()}/send`, headers: o.auth });
const me = async (o: { auth: Record<string, string> }) =>
  (await kit.app.inject({ url: '/auth/me', headers: o.auth })).json<{ email_verified: boolean }>();

describe('email verification', { timeout: 120_000 }, () => {
  it('verifies the owner with the emailed link, once', async () => {
    const o = await signedUp('alpha-verify');
    const token = await kit.verificationToken(o.email);
    expect((await verify(token)).statusCode).toBe(204);
    expect(await me(o)).toMatchObject({ email_verified: true });
    const again = await verify(token);
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ code: 'VERIFICATION_TOKEN_INVALID' });
  });

  it('refuses an unknown, malformed or expired link alike', async () => {
    const o = await signedUp('bravo-verify');
    expect((await verify('x'.repeat(43))).json()).toMatchObject({ code: 'VERIFICATION_TOKEN_INVALID' });
    expect((await verify('not a token')).json()).toMatchObject({ code: 'VERIFICATION_TOKEN_INVALID' });
    await kit.t.db.query(
      `UPDATE email_verifications SET expires_at = now() - interval '1 second'
        WHERE user_id = (SELECT id FROM users WHERE email = $1)`,
      [o.email],
    );
    expect((await verify(await kit.verificationToken(o.email))).statusCode).toBe(404);
    expect(await me(o)).toMatchObject({ email_verified: false });
  });

  it('resends a new link that replaces the old one, and sends nothing once verified', async () => {
    const o = await signedUp('charlie-verify');
    const first = await kit.verificationToken(o.email);
    const resent = await kit.app.inject({ method: 'POST', url: '/auth/verify-email/resend', headers: o.auth });
    expect(resent.statusCode).toBe(202);
    expect(resent.json()).toEqual({ sent: true });
    const second = await kit.verificationToken(o.email);
    expect(second).not.toBe(first);
    expect((await verify(first)).statusCode).toBe(404);
    expect((await verify(second)).statusCode).toBe(204);
    const after = await kit.app.inject({ method: 'POST', url: '/auth/verify-email/resend', headers: o.auth });
    expect(after.json()).toEqual({ sent: false });
  });

  it('stores only the hash of the link', async () => {
    const o = await signedUp('delta-verify');
    const token = (await kit.verificationToken(o.email))!;
    const rows = await kit.t.db.query<{ token_hash: Buffer }>('SELECT token_hash FROM email_verifications');
    expect(rows.rows.some((r) => r.token_hash.toString('utf8').includes(token))).toBe(false);
    expect(rows.rows.every((r) => r.token_hash.length === 32)).toBe(true);
  });
});

describe('until verified', { timeout: 120_000 }, () => {
  it('refuses sending quotes and inviting with EMAIL_NOT_VERIFIED, and allows both after', async () => {
    const o = await signedUp('echo-gate');
    const refusedInvite = await invite(o);
    expect(refusedInvite.statusCode).toBe(403);
    expect(refusedInvite.json()).toMatchObject({ code: 'EMAIL_NOT_VERIFIED' });
    const refusedSend = await sendQuote(o);
    expect(refusedSend.statusCode).toBe(403);
    expect(refusedSend.json()).toMatchObject({ code: 'EMAIL_NOT_VERIFIED' });
    // Setting up still works.
    const settings = await kit.app.inject({
      method: 'PUT',
      url: `/api/tenants/${o.tenantId}/settings`,
      headers: o.auth,
      payload: { phone: '720-555-0100' },
    });
    expect(settings.statusCode).toBe(200);

    await verify(await kit.verificationToken(o.email));
    expect((await invite(o)).statusCode).toBe(202);
    expect((await sendQuote(o)).statusCode).toBe(404);
  });

  it("does not hold back accounts made outside sign-up (an owner made the CLI's way)", async () => {
    const t = await kit.tenant('foxtrot-cli');
    const o = { tenantId: t.id, auth: { authorization: `Bearer ${t.token}` } };
    expect((await invite(o)).statusCode).toBe(202);
    expect(await me(o)).toMatchObject({ email_verified: true });
  });
});
