/**
 * Access tokens verify with the current key or a previous one (rotation), by the key their `kid`
 * names; anything forged, unsigned, malformed or for another key is TOKEN_INVALID. The imported keys
 * are kept per secret, so these also check that a cached key never verifies another secret's token.
 */
import { AppError } from '@platform/kernel';
import { SignJWT, UnsecuredJWT } from 'jose';
import { describe, expect, it } from 'vitest';

import { ACCESS_AUDIENCE, accessTokenKeys, issueAccessToken, verifyAccessToken } from './access-token.js';
import type { Principal } from './principal.js';

const who: Principal = {
  userId: '6f1c2a4e-0d3b-4c59-9a57-2f0e8d1b7c11',
  tenantId: '0b7e9c2d-4a6f-4e1b-8c3d-5f2a1e0d9b44',
  role: 'office',
  email: 'office@example.test',
  sessionId: '3c5d7e9f-1a2b-4c3d-8e4f-5a6b7c8d9e0f',
};
const OLD = 'o'.repeat(40);
const NEW = 'n'.repeat(40);

const code = (p: Promise<unknown>) =>
  p.then(
    () => 'accepted',
    (e: unknown) => (e instanceof AppError ? e.code : String(e)),
  );

describe('access tokens', () => {
  it('verify with the current key, and with a previous one after a rotation until they expire', async () => {
    const before = accessTokenKeys('iss', OLD);
    const after = accessTokenKeys('iss', NEW, [OLD]);
    const oldToken = await issueAccessToken(before, who, 600);
    const newToken = await issueAccessToken(after, who, 600);
    for (let i = 0; i < 2; i++) {
      // Twice: the second pass runs on the keys imported by the first.
      expect(await verifyAccessToken(after, oldToken)).toEqual(who);
      expect(await verifyAccessToken(after, newToken)).toEqual(who);
      expect(await verifyAccessToken(before, oldToken)).toEqual(who);
    }
  });

  it('refuse a token of a key that is no longer accepted, or of another secret of the same kid cache', async () => {
    const old = await issueAccessToken(accessTokenKeys('iss', OLD), who, 600);
    expect(await code(verifyAccessToken(accessTokenKeys('iss', NEW), old))).toBe('TOKEN_INVALID');
    const other = await issueAccessToken(accessTokenKeys('iss', 'x'.repeat(40)), who, 600);
    expect(await code(verifyAccessToken(accessTokenKeys('iss', NEW, [OLD]), other))).toBe('TOKEN_INVALID');
  });

  it("refuse a token whose kid names one accepted key but whose signature is another's", async () => {
    const keys = accessTokenKeys('iss', NEW, [OLD]);
    const genuine = await issueAccessToken(accessTokenKeys('iss', NEW), who, 600);
    const kidOfNew = JSON.parse(Buffer.from(genuine.split('.')[0]!, 'base64url').toString()).kid as string;
    const swapped = await new SignJWT({ tid: who.tenantId, role: who.role, email: who.email })
      .setProtectedHeader({ alg: 'HS256', kid: kidOfNew })
      .setSubject(who.userId)
      .setIssuer('iss')
      .setAudience(ACCESS_AUDIENCE)
      .setExpirationTime('10m')
      .sign(new TextEncoder().encode(OLD));
    expect(await code(verifyAccessToken(keys, swapped))).toBe('TOKEN_INVALID');
  });

  it('refuse an unsigned token, an expired one and text that is no token', async () => {
    const keys = accessTokenKeys('iss', NEW);
    const unsigned = new UnsecuredJWT({ tid: who.tenantId, role: 'owner', email: who.email })
      .setSubject(who.userId)
      .setIssuer('iss')
      .setAudience(ACCESS_AUDIENCE)
      .setExpirationTime('10m')
      .encode();
    expect(await code(verifyAccessToken(keys, unsigned))).toBe('TOKEN_INVALID');
    expect(await code(verifyAccessToken(keys, await issueAccessToken(keys, who, -10)))).toBe('TOKEN_INVALID');
    expect(await code(verifyAccessToken(keys, 'not.a.token'))).toBe('TOKEN_INVALID');
  });
});
