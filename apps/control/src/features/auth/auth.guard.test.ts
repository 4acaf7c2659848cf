/**
 * Access tokens guard every signed-in endpoint: a forged, expired, other-audience, other-issuer or
 * `alg: none` token is refused; a token of tenant B cannot reach tenant A's resources; roles decide.
 */
import { SignJWT, UnsecuredJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type ControlKit, startControlKit, TEST_JWT_SECRET } from '../../testing/control-test-kit.js';

let kit: ControlKit;
let a: Awaited<ReturnType<ControlKit['tenant']>>;
let b: Awaited<ReturnType<ControlKit['tenant']>>;
beforeAll(async () => {
  kit = await startControlKit();
  a = await kit.tenant('guard-a');
  b = await kit.tenant('guard-b');
});
afterAll(async () => kit?.close());

const planOf = (tenantId: string, token?: string) =>
  kit.app.inject({
    url: `/api/tenants/${tenantId}/plan`,
    ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
  });

const claims = () => ({ tid: a.id, role: 'owner', email: a.owner.email });
const key = new TextEncoder().encode(TEST_JWT_SECRET);
/** An HS256 token for tenant A's owner: the one the control plane issues unless `o` changes a part (null = no expiry). */
function signed(o: { key?: Uint8Array; issuer?: string; audience?: string; expires?: string | number | null } = {}) {
  const jwt = new SignJWT(claims())
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(a.owner.userId)
    .setIssuer(o.issuer ?? 'window-platform')
    .setAudience(o.audience ?? 'control');
  if (o.expires !== null) jwt.setExpirationTime(o.expires ?? '5m');
  return jwt.sign(o.key ?? key);
}

describe('access tokens', () => {
  it("lets an owner read their own tenant's plan", async () => {
    const r = await planOf(a.id, a.token);
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ plan: 'free', limits: { users: 2, technicians: 1, jobs_per_month: 20 } });
  });

  it('asks for sign-in when there is no token (401 AUTH_REQUIRED with WWW-Authenticate)', async () => {
    const r = await planOf(a.id);
    expect(r.statusCode).toBe(401);
    expect(r.json().code).toBe('AUTH_REQUIRED');
    expect(r.headers['www-authenticate']).toBe('Bearer');
  });

  it('accepts the token the refusals below start from, with nothing changed', async () => {
    expect((await planOf(a.id, await signed())).statusCode).toBe(200);
  });

  it.each([
    [
      'signed with another key',
      () => signed({ key: new TextEncoder().encode('another-secret-another-secret-another-secret') }),
    ],
    ['expired', () => signed({ expires: Math.floor(Date.now() / 1000) - 60 })],
    ['of another audience', () => signed({ audience: 'erp' })],
    ['of another issuer', () => signed({ issuer: 'someone-else' })],
    [
      'unsigned (alg none)',
      async () =>
        new UnsecuredJWT(claims())
          .setSubject(a.owner.userId)
          .setIssuer('window-platform')
          .setAudience('control')
          .setExpirationTime('5m')
          .encode(),
    ],
    ['without an expiry', () => signed({ expires: null })],
  ])('refuses a token %s (401 TOKEN_INVALID)', async (_name, make) => {
    const r = await planOf(a.id, await make());
    expect(r.statusCode).toBe(401);
    expect(r.json().code).toBe('TOKEN_INVALID');
  });

  it("answers 404 to tenant B's owner asking for tenant A's plan", async () => {
    const r = await planOf(a.id, b.token);
    expect(r.statusCode).toBe(404);
    expect(r.body).not.toContain('guard-a');
  });

  it('refuses a suspended tenant its tokens (403 TENANT_SUSPENDED) and accepts them again on resume', async () => {
    await kit.t.db.query(`UPDATE tenants SET status = 'suspended' WHERE id = $1`, [b.id]);
    expect((await planOf(b.id, b.token)).json().code).toBe('TENANT_SUSPENDED');
    await kit.t.db.query(`UPDATE tenants SET status = 'active' WHERE id = $1`, [b.id]);
    expect((await planOf(b.id, b.token)).statusCode).toBe(200);
  });

  it('lets only an owner change the plan (a technician gets 403 ROLE_FORBIDDEN naming who may)', async () => {
    const c = await kit.tenant('guard-c', 'starter');
    const tech = await kit.member(c.id, 'technician');
    const r = await kit.app.inject({
      method: 'PUT',
      url: `/api/tenants/${c.id}/plan`,
      headers: { authorization: `Bearer ${tech.token}` },
      payload: { plan: 'enterprise' },
    });
    expect(r.statusCode).toBe(403);
    expect(r.json()).toMatchObject({ code: 'ROLE_FORBIDDEN', required_roles: ['owner'] });
  });
});
