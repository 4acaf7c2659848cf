/**
 * Forgetting a password as a user notices it: asking always gets the same answer, an account gets
 * an email whose link sets a new password once and within the hour, which signs the account out
 * everywhere; the old password stops working. The link's token appears in no log line.
 */
import { Writable } from 'node:stream';

import { loggerOptions } from '@platform/http-kit';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { buildControlApp } from '../../control.http-app.js';
import { type ControlKit, startControlKit } from '../../testing/control-test-kit.js';
import { emailsTo, get, login, PASSWORD, post, problemOf, testClock } from './accounts.fixture.js';

let kit: ControlKit;
const clock = testClock();
beforeAll(async () => {
  kit = await startControlKit({}, { clock });
});
afterAll(async () => kit?.close());

const ask = (body: object) => post(kit, '/auth/password-reset', body);
const confirm = (body: object) => post(kit, '/auth/password-reset/confirm', body);

describe('password reset', () => {
  it('answers an unknown address exactly like a known one, and emails only the known one', async () => {
    await kit.tenant('reset-enum');
    const known = await ask({ email: 'owner@reset-enum.test' });
    const unknown = await ask({ email: 'nobody@reset-enum.test' });
    expect(known.statusCode).toBe(202);
    expect(unknown.statusCode).toBe(202);
    expect(known.json()).toEqual(unknown.json());
    expect(await emailsTo(kit, 'owner@reset-enum.test')).toHaveLength(1);
    expect(await emailsTo(kit, 'nobody@reset-enum.test')).toHaveLength(0);
  });

  it('sets a new password once with the emailed link and signs the account out everywhere', async () => {
    const t = await kit.tenant('reset-flow');
    const email = 'owner@reset-flow.test';
    const before = (await login(kit, { email, password: PASSWORD })).json();
    await ask({ email });
    const [mail] = await emailsTo(kit, email);
    expect(mail!.template).toBe('password_reset');
    expect(mail!.link).toBe(`https://reset-flow.tenants.localhost/account/reset-password#token=${mail!.token}`);
    const r = await confirm({ token: mail!.token, password: 'my new long password' });
    expect(r.statusCode).toBe(204);
    expect((await get(kit, '/auth/me', before.access_token)).statusCode).toBe(401);
    expect((await post(kit, '/auth/refresh', { refresh_token: before.refresh_token })).statusCode).toBe(401);
    expect((await login(kit, { email, password: PASSWORD })).json().code).toBe('LOGIN_FAILED');
    expect((await login(kit, { email, password: 'my new long password' })).statusCode).toBe(200);
    const again = await confirm({ token: mail!.token, password: 'yet another password' });
    expect(again.statusCode).toBe(404);
    expect(again.json().code).toBe('RESET_TOKEN_INVALID');
    const audit = await get(kit, '/api/audit?action=auth.password_reset', t.token);
    expect(audit.json().total).toBe(1);
  });

  it('refuses an expired link, an unknown one and a malformed one with the same answer', async () => {
    await kit.tenant('reset-expiry');
    await ask({ email: 'owner@reset-expiry.test' });
    const [mail] = await emailsTo(kit, 'owner@reset-expiry.test');
    clock.advance(3601);
    const expired = await confirm({ token: mail!.token, password: 'my new long password' });
    const unknown = await confirm({ token: 'C'.repeat(43), password: 'my new long password' });
    const malformed = await confirm({ token: 'nope', password: 'my new long password' });
    expect(expired.statusCode).toBe(404);
    for (const r of [unknown, malformed])
      expect(problemOf(r)).toEqual({ ...problemOf(expired), instance: expect.any(String) });
    expect((await login(kit, { email: 'owner@reset-expiry.test', password: PASSWORD })).statusCode).toBe(200);
  });

  it('lets only the newest link work', async () => {
    await kit.tenant('reset-newest');
    await ask({ email: 'owner@reset-newest.test' });
    await ask({ email: 'owner@reset-newest.test' });
    const [old, newest] = await emailsTo(kit, 'owner@reset-newest.test');
    expect((await confirm({ token: old!.token, password: 'my new long password' })).statusCode).toBe(404);
    expect((await confirm({ token: newest!.token, password: 'my new long password' })).statusCode).toBe(204);
  });

  it('lifts a sign-in lock, and refuses a short new password naming the rule', async () => {
    await kit.tenant('reset-lock');
    const email = 'owner@reset-lock.test';
    for (let i = 0; i < 6; i++) await login(kit, { email, password: 'guess guess' }, '10.7.0.1');
    expect((await login(kit, { email, password: PASSWORD }, '10.7.0.2')).statusCode).toBe(429);
    await ask({ email });
    const [mail] = await emailsTo(kit, email);
    const short = await confirm({ token: mail!.token, password: 'short' });
    expect(short.statusCode).toBe(422);
    expect(short.json().errors).toEqual([expect.objectContaining({ field: 'password', rule: 'min_length' })]);
    expect((await confirm({ token: mail!.token, password: 'my new long password' })).statusCode).toBe(204);
    expect((await login(kit, { email, password: 'my new long password' }, '10.7.0.2')).statusCode).toBe(200);
  });

  it('sends at most 3 emails per address per quarter hour, still answering 202', async () => {
    await kit.tenant('reset-bomb');
    for (let i = 0; i < 5; i++) expect((await ask({ email: 'owner@reset-bomb.test' })).statusCode).toBe(202);
    expect(await emailsTo(kit, 'owner@reset-bomb.test')).toHaveLength(3);
  });
});

describe('tokens in logs', () => {
  it('never writes an emailed token or a refresh token into the request log', async () => {
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) });
    const app = await buildControlApp(kit.deps, {
      logger: pino(loggerOptions('trace'), sink),
      bodyLimit: 262_144,
      trustProxy: false,
    });
    const t = await kit.tenant('reset-logs', 'starter');
    const call = (url: string, payload: object, token?: string) =>
      app.inject({ method: 'POST', url, payload, ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}) });
    await call('/auth/password-reset', { email: 'owner@reset-logs.test' });
    await call(`/api/tenants/${t.id}/invitations`, { email: 'logs@reset.test', role: 'office' }, t.token);
    const reset = (await emailsTo(kit, 'owner@reset-logs.test'))[0]!.token;
    const invitation = (await emailsTo(kit, 'logs@reset.test'))[0]!.token;
    await call('/auth/password-reset/confirm', { token: reset, password: 'short' });
    await call('/auth/password-reset/confirm', { token: reset, password: 'my new long password' });
    const joined = (
      await call('/auth/invitations/accept', { token: invitation, name: 'L', password: 'long enough now' })
    ).json();
    await call('/auth/refresh', { refresh_token: joined.refresh_token });
    await call('/auth/refresh', { refresh_token: joined.refresh_token });
    await app.close();
    const log = lines.join('');
    expect(log).toContain('/auth/refresh');
    for (const secret of [reset, invitation, joined.refresh_token, joined.access_token])
      expect(log).not.toContain(secret);
  });
});
