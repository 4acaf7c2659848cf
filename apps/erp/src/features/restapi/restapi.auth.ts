/**
 * Who is calling the REST API: an `X-API-Key` (per-user key) or `Authorization: Bearer` (OAuth2
 * access token). Unknown, revoked or expired credentials, and credentials of an archived ERP user,
 * are API_UNAUTHENTICATED (audited); a tenant whose plan lacks API access is PLAN_FEATURE_MISSING;
 * then the per-credential rate limit applies.
 */
import { API_KEY_RE, type ApiKeysService } from '@platform/credentials';
import type { RateLimiter } from '@platform/http-kit';
import { AppError } from '@platform/kernel';
import type { FastifyReply, FastifyRequest } from 'fastify';

import type { AuthFailures } from '../credentials/auth-failures.js';
import type { ActingUser, ActingUsers } from './acting-users.js';

export interface Principal {
  kind: 'api_key' | 'oauth';
  user: ActingUser;
  scopes: string[];
  keyId?: number;
  appId?: number;
}

/** The OAuth feature's access-token check (OAuthService), as the REST API needs it. */
export interface AccessTokens {
  /** The live grant behind an access token, or undefined when it is unknown, expired or revoked. */
  verifyAccessToken(token: string): Promise<{ app_id: number; login: string; scopes: string } | undefined>;
}

export interface RestAuthDeps {
  keys: ApiKeysService;
  oauth: AccessTokens;
  users: ActingUsers;
  failures: AuthFailures;
  limiter: RateLimiter;
  rateLimit: { max: number; windowSeconds: number };
}

/** RFC 6750 §3: a presented but bad bearer token is `invalid_token`. */
const challenge = (what: string) =>
  what === 'bearer'
    ? 'Bearer realm="restapi", error="invalid_token", ApiKey header="X-API-Key"'
    : 'Bearer realm="restapi", ApiKey header="X-API-Key"';

export class RestAuth {
  constructor(private readonly d: RestAuthDeps) {}

  async authenticate(req: FastifyRequest, reply: FastifyReply): Promise<Principal> {
    const apiKey = req.headers['x-api-key'];
    const authz = req.headers.authorization;
    let found: { login: string; scopes: string[]; keyId?: number; appId?: number; rateKey: string } | undefined;
    let what: string;
    if (typeof apiKey === 'string' && apiKey !== '') {
      what = 'api_key';
      const row = await this.d.keys.verify(apiKey);
      if (row) found = { login: row.login, scopes: row.scopes.split(' '), keyId: row.id, rateKey: `key:${row.id}` };
    } else if (typeof authz === 'string' && /^bearer /i.test(authz)) {
      what = 'bearer';
      const row = await this.d.oauth.verifyAccessToken(authz.slice(7).trim());
      // One budget per application and user, so refreshing does not reset it.
      if (row)
        found = {
          login: row.login,
          scopes: row.scopes.split(' '),
          appId: row.app_id,
          rateKey: `app:${row.app_id}:${row.login}`,
        };
    } else {
      what = 'none';
    }
    if (!found) return this.fail(req, reply, what, 'Send a valid X-API-Key or Authorization: Bearer access token.');
    const user = await this.d.users.find(found.login);
    if (!user) return this.fail(req, reply, what, 'The ERP user this credential acts for is archived or gone.', found);
    // Refused (PLAN_FEATURE_MISSING) while the tenant's plan lacks API access, e.g. after a downgrade.
    await this.d.keys.assertApiAccess();
    await this.d.limiter.consume({ name: 'restapi', ...this.d.rateLimit }, found.rateKey);
    return {
      kind: found.keyId !== undefined ? 'api_key' : 'oauth',
      user,
      scopes: found.scopes,
      keyId: found.keyId,
      appId: found.appId,
    };
  }

  private async fail(
    req: FastifyRequest,
    reply: FastifyReply,
    what: string,
    message: string,
    who?: { login: string; keyId?: number; appId?: number },
  ): Promise<never> {
    reply.header('www-authenticate', challenge(what));
    const presented =
      typeof req.headers['x-api-key'] === 'string' ? API_KEY_RE.exec(req.headers['x-api-key'])?.[1] : undefined;
    await this.d.failures.record(req.ip, {
      keyId: who?.keyId ?? null,
      appId: who?.appId ?? null,
      login: who?.login ?? null,
      detail: {
        where: 'restapi',
        credential: what,
        ...(presented ? { key_prefix: presented } : {}),
        path: req.url.split('?')[0],
      },
    });
    throw new AppError('API_UNAUTHENTICATED', message);
  }
}
