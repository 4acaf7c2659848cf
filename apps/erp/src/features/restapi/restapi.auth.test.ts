/** Credentials, scopes, rate limits, audit and log hygiene of the REST API. */
import { Writable } from 'node:stream';

import { loggerOptions } from '@platform/http-kit';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { apiKey, type RestHarness, startRestHarness } from '../../../test/support/restapi-harness.js';

let h: RestHarness;
let logs = '';
const sink = new Writable({ write: (chunk, _enc, cb) => ((logs += String(chunk)), cb()) });

beforeAll(async () => {
  const logger = pino(loggerOptions('info'), sink) as unknown as FastifyBaseLogger;
  h = await startRestHarness({
    rateLimit: { max: 5, windowSeconds: 60 },
    loginLimit: { max: 3, windowSeconds: 60 },
    logger,
  });
});
afterAll(async () => h?.close());

const get = (url: string, headers: Record<string, string> = {}) =>
  h.app.inject({ url: `/restapi/1.0/object/${url}`, headers });
const audit = async (event: string) => (await h.deps.audit.list()).filter((e) => e.event === event);

describe('authentication', () => {
  it('no credential: 401 problem with WWW-Authenticate, audited', async () => {
    const res = await get('res.partner');
    expect(res.statusCode).toBe(401);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.headers['www-authenticate']).toContain('Bearer realm="restapi"');
    expect(res.json()).toMatchObject({
      code: 'API_UNAUTHENTICATED',
      status: 401,
      type: 'urn:platform:problem:api-unauthenticated',
    });
    expect((await audit('auth_failed')).some((e) => e.detail.credential === 'none')).toBe(true);
  });

  it('an unknown key or a bad bearer token: 401 (invalid_token for bearer); the key prefix is audited, never the key', async () => {
    const forged = `erpk_ABCDEFGH_${'x'.repeat(43)}`;
    expect((await get('res.partner', { 'x-api-key': forged })).statusCode).toBe(401);
    expect((await get('res.partner', { 'x-api-key': 'not-a-key' })).statusCode).toBe(401);
    const bearer = await get('res.partner', { authorization: 'Bearer erpat_nope' });
    expect(bearer.statusCode).toBe(401);
    expect(bearer.headers['www-authenticate']).toContain('error="invalid_token"');
    const rows = await audit('auth_failed');
    expect(rows.some((e) => e.detail.key_prefix === 'ABCDEFGH')).toBe(true);
    expect(JSON.stringify(rows)).not.toContain(forged);
  });

  it('a revoked key gets 401 at once; creation and revocation are audited', async () => {
    const { key, id } = await apiKey(h, 'read:res.partner');
    expect((await get('res.partner', { 'x-api-key': key })).statusCode).toBe(200);
    await h.deps.keys.revoke(id);
    expect((await get('res.partner', { 'x-api-key': key })).statusCode).toBe(401);
    expect((await audit('key_created')).some((e) => e.key_id === id)).toBe(true);
    expect((await audit('key_revoked')).some((e) => e.key_id === id)).toBe(true);
  });

  it('records when a key was last used', async () => {
    const { key, id } = await apiKey(h, 'read:res.partner');
    expect((await h.deps.keys.list()).find((k) => k.id === id)!.lastUsedAt).toBeNull();
    await get('res.partner', { 'x-api-key': key });
    expect((await h.deps.keys.list()).find((k) => k.id === id)!.lastUsedAt).not.toBeNull();
  });

  it('a key acting for a login the ERP does not have (or has archived) gets 401', async () => {
    const { key } = await apiKey(h, 'read:res.partner', 'nobody');
    const res = await get('res.partner', { 'x-api-key': key });
    expect(res.statusCode).toBe(401);
    expect(res.json().detail).toContain('archived or gone');
  });

  it('stores no key, secret or token in clear', async () => {
    const { key } = await apiKey(h, 'read:res.partner');
    const dump = JSON.stringify((await h.t.db.query('SELECT * FROM restapi_keys')).rows);
    expect(dump).not.toContain(key.slice(14));
  });
});

describe('scopes and models', () => {
  let key: string;
  // A fresh key per test: the rate limit here is 5 requests per key.
  beforeEach(async () => ({ key } = await apiKey(h, 'read:res.partner method:res.partner.action_archive')));

  it('an operation outside the scope is 403 naming the scope it needs', async () => {
    const res = await h.app.inject({
      method: 'POST',
      url: '/restapi/1.0/object/res.partner',
      headers: { 'x-api-key': key },
      payload: { name: 'x' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'API_FORBIDDEN', required_scope: 'write:res.partner' });
    expect((await get('crm.lead', { 'x-api-key': key })).json()).toMatchObject({
      status: 403,
      required_scope: 'read:crm.lead',
    });
    const m = await h.app.inject({
      method: 'POST',
      url: '/restapi/1.0/object/res.partner/3/action_other',
      headers: { 'x-api-key': key },
    });
    expect(m.json()).toMatchObject({ status: 403, required_scope: 'method:res.partner.action_other' });
  });

  it('an unknown model is 404 MODEL_NOT_FOUND; users and technical models are never reachable', async () => {
    expect((await get('x_no.such_model', { 'x-api-key': key })).json()).toMatchObject({
      status: 404,
      code: 'MODEL_NOT_FOUND',
    });
    expect((await get('nodots', { 'x-api-key': key })).json()).toMatchObject({ status: 404, code: 'MODEL_NOT_FOUND' });
    expect((await get('res.users', { 'x-api-key': key })).statusCode).toBe(403);
  });

  it('a granted method the model lacks is 404 METHOD_NOT_FOUND; ORM methods cannot be called as methods', async () => {
    const granted = await h.app.inject({
      method: 'POST',
      url: '/restapi/1.0/object/res.partner/3/action_archive',
      headers: { 'x-api-key': key },
    });
    expect(granted.json()).toMatchObject({ status: 404, code: 'METHOD_NOT_FOUND' });
    const orm = await h.app.inject({
      method: 'POST',
      url: '/restapi/1.0/object/res.partner/3/unlink',
      headers: { 'x-api-key': key },
    });
    expect(orm.json()).toMatchObject({ status: 404, code: 'METHOD_NOT_FOUND' });
  });
});

describe('rate limit per key', () => {
  it('past the limit: 429 problem with Retry-After; another key is unaffected', async () => {
    const { key } = await apiKey(h, 'read:res.partner');
    for (let i = 0; i < 5; i++) expect((await get('res.partner', { 'x-api-key': key })).statusCode).toBe(200);
    const res = await get('res.partner', { 'x-api-key': key });
    expect(res.statusCode).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.json()).toMatchObject({ code: 'RATE_LIMITED', status: 429 });
    const other = await apiKey(h, 'read:res.partner');
    expect((await get('res.partner', { 'x-api-key': other.key })).statusCode).toBe(200);
  });
});

describe('consent sign-in is throttled', () => {
  it('past the attempts per login and IP: 429 with Retry-After', async () => {
    const app = await h.deps.apps.create({
      name: 'Throttle',
      redirectUris: 'http://127.0.0.1:1/cb',
      scope: 'read:res.partner',
    });
    const q = new URLSearchParams({
      response_type: 'code',
      client_id: app.app.clientId,
      redirect_uri: 'http://127.0.0.1:1/cb',
      code_challenge: 'a'.repeat(43),
      code_challenge_method: 'S256',
    });
    const page = await h.app.inject({ url: `/restapi/1.0/common/oauth2/authorize?${q}` });
    const cookie = String(page.headers['set-cookie']).split(';')[0]!;
    const csrf = /name="csrf_token" value="([^"]+)"/.exec(page.body)![1]!;
    const post = () =>
      h.app.inject({
        method: 'POST',
        url: '/restapi/1.0/common/oauth2/authorize',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({
          ...Object.fromEntries(q),
          csrf_token: csrf,
          login: 'admin',
          password: 'guess',
          decision: 'approve',
        }).toString(),
      });
    for (let i = 0; i < 3; i++) expect((await post()).statusCode).toBe(401);
    const blocked = await post();
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBeDefined();
  });
});

describe('logs', () => {
  it('never contain a key, token, client secret or password', async () => {
    const { key } = await apiKey(h, 'read:res.partner');
    await get('res.partner', { 'x-api-key': key });
    await get('res.partner', { authorization: 'Bearer erpat_secret-bearer-value' });
    await h.app.inject({
      method: 'POST',
      url: '/restapi/1.0/common/oauth2/token',
      payload: 'grant_type=refresh_token&refresh_token=erprt_secret-refresh&client_id=c&client_secret=secret-client',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(logs).toContain('"url":"/restapi/1.0/object/res.partner"');
    for (const s of [key, 'secret-bearer-value', 'erprt_secret-refresh', 'secret-client', 'guess'])
      expect(logs).not.toContain(s);
  });
});
