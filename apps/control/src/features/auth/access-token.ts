/**
 * Access tokens of the control plane: short-lived JWTs (jose), HS256 only (the algorithm is pinned,
 * so a token that names `none` or an asymmetric algorithm is refused), with `iss`, `aud` and `exp`
 * checked. Claims: `sub` user id, `tid` tenant id, `role`, `email`, `sid` sign-in session. A `kid` names the key, so a
 * rotated key keeps verifying the tokens it signed until they expire.
 */
import { createHash } from 'node:crypto';

import { AppError } from '@platform/kernel';
import { decodeProtectedHeader, jwtVerify, SignJWT } from 'jose';

import { type Principal, type Role, ROLES } from './principal.js';

export const ACCESS_AUDIENCE = 'control';
const ALG = 'HS256';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface AccessTokenKeys {
  issuer: string;
  current: Uint8Array;
  /** Keys still accepted for verification after a rotation. */
  previous: Uint8Array[];
}

const kidOf = (key: Uint8Array) => createHash('sha256').update(key).digest('base64url').slice(0, 8);

/**
 * Each accepted secret as an imported HMAC key with its kid, made once per secret: jose would
 * otherwise import the raw bytes (WebCrypto `importKey`) and the kid would be hashed again on every
 * request. Only derived material of a key already in memory is kept; every check still runs per token.
 */
const verifying = new WeakMap<Uint8Array, Promise<{ key: CryptoKey; kid: string }>>();
function verifierOf(secret: Uint8Array): Promise<{ key: CryptoKey; kid: string }> {
  let v = verifying.get(secret);
  if (!v) {
    v = crypto.subtle
      .importKey('raw', new Uint8Array(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify'])
      .then((key) => ({ key, kid: kidOf(secret) }));
    verifying.set(secret, v);
  }
  return v;
}

export function accessTokenKeys(issuer: string, current: string, previous: string[] = []): AccessTokenKeys {
  const enc = new TextEncoder();
  return { issuer, current: enc.encode(current), previous: previous.map((p) => enc.encode(p)) };
}

export async function issueAccessToken(keys: AccessTokenKeys, p: Principal, ttlSeconds: number): Promise<string> {
  return new SignJWT({ tid: p.tenantId, role: p.role, email: p.email, ...(p.sessionId ? { sid: p.sessionId } : {}) })
    .setProtectedHeader({ alg: ALG, typ: 'JWT', kid: kidOf(keys.current) })
    .setSubject(p.userId)
    .setIssuer(keys.issuer)
    .setAudience(ACCESS_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${ttlSeconds}s`)
    .sign(keys.current);
}

const invalid = () =>
  new AppError('TOKEN_INVALID', 'The access token is not valid (expired, forged or not for this service).');

/** The principal of a valid token; TOKEN_INVALID for anything else, never saying which check failed. */
export async function verifyAccessToken(keys: AccessTokenKeys, token: string): Promise<Principal> {
  let named: string | undefined;
  try {
    named = decodeProtectedHeader(token).kid;
  } catch {
    throw invalid();
  }
  for (const secret of [keys.current, ...keys.previous]) {
    try {
      const { key, kid } = await verifierOf(secret);
      // A token names the key that signed it: verifying it with another one can only fail.
      if (named !== undefined && named !== kid) continue;
      const { payload, protectedHeader } = await jwtVerify(token, key, {
        algorithms: [ALG],
        issuer: keys.issuer,
        audience: ACCESS_AUDIENCE,
        requiredClaims: ['exp', 'sub'],
      });
      if (protectedHeader.kid !== undefined && protectedHeader.kid !== kid) continue;
      const { sub, tid, role, email, sid } = payload;
      if (typeof sub !== 'string' || typeof tid !== 'string' || typeof email !== 'string') throw invalid();
      if (!(ROLES as readonly string[]).includes(role as string)) throw invalid();
      if (sid !== undefined && (typeof sid !== 'string' || !UUID.test(sid))) throw invalid();
      return { userId: sub, tenantId: tid, role: role as Role, email, ...(sid ? { sessionId: sid } : {}) };
    } catch (e) {
      if (e instanceof AppError) throw e;
      // A signature made with another key: try the next accepted key; other failures are final.
      if ((e as { code?: string }).code === 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED') continue;
      throw invalid();
    }
  }
  throw invalid();
}
