/**
 * OAuth2 endpoints of the ERP host (docs/rest-api.md): the consent page at authorize (GET shows it,
 * POST signs in and approves), the token endpoint (RFC 6749 §5 JSON bodies), revocation (RFC 7009)
 * and the authorization server metadata (RFC 8414).
 */
import { AppError } from '@platform/kernel';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import type { AuthFailures } from '../credentials/auth-failures.js';
import { consentPage, errorPage, sendPage } from './consent.page.js';
import { csrfValid, issueCsrf } from './csrf.js';
import { OAuthError } from './oauth.errors.js';
import { type AuthorizeParams, errorRedirect, type OAuthService } from './oauth.service.js';
import type { OAuthAppRow } from './oauth-apps.repo.js';
import type { OAuthAppsService } from './oauth-apps.service.js';

export interface OAuthRouteDeps {
  oauth: OAuthService;
  apps: OAuthAppsService;
  failures: AuthFailures;
  /** `common.authenticate` of the ERP: true when login and password are right. */
  verifyLogin(login: string, password: string): Promise<boolean>;
  issuer(req: FastifyRequest): string;
}

/** Relative to the REST plugin's prefix /restapi/1.0. */
const BASE = '/common/oauth2';
export const OAUTH_BASE = `/restapi/1.0${BASE}`;
const AUTHZ_KEYS = [
  'response_type',
  'client_id',
  'redirect_uri',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
] as const;

function authorizeParams(src: unknown): AuthorizeParams {
  const o = (src ?? {}) as Record<string, unknown>;
  const p: AuthorizeParams = {};
  for (const k of AUTHZ_KEYS) if (typeof o[k] === 'string') p[k] = o[k] as string;
  return p;
}

/** Form or JSON body as single strings; a repeated parameter is invalid_request (RFC 6749 §3.1). */
function singleParams(body: unknown): Record<string, string | undefined> {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new OAuthError('invalid_request', 'Send the parameters as application/x-www-form-urlencoded.');
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(body)) {
    if (typeof v !== 'string') throw new OAuthError('invalid_request', `Parameter ${k} must appear once, as a string.`);
    out[k] = v;
  }
  return out;
}

/** client_secret_basic (RFC 6749 §2.3.1, form-encoded parts) or client_secret_post, never both. */
function clientCredentials(
  req: FastifyRequest,
  body: Record<string, string | undefined>,
): { id: string; secret: string } {
  const h = req.headers.authorization;
  if (h && /^basic /i.test(h)) {
    if (body.client_secret !== undefined)
      throw new OAuthError('invalid_request', 'Use one client authentication method.');
    const raw = Buffer.from(h.slice(6).trim(), 'base64').toString('utf8');
    const i = raw.indexOf(':');
    const dec = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
    try {
      if (i > 0) {
        const id = dec(raw.slice(0, i));
        if (body.client_id !== undefined && body.client_id !== id)
          throw new OAuthError('invalid_request', 'client_id differs from the Authorization header.');
        return { id, secret: dec(raw.slice(i + 1)) };
      }
    } catch (e) {
      if (e instanceof OAuthError) throw e;
    }
    throw new OAuthError('invalid_client', 'Malformed Basic credentials.');
  }
  if (body.client_id && body.client_secret) return { id: body.client_id, secret: body.client_secret };
  throw new OAuthError(
    'invalid_client',
    'Client authentication is required (client_secret_basic or client_secret_post).',
  );
}

const noStore = (reply: FastifyReply) => reply.headers({ 'cache-control': 'no-store', pragma: 'no-cache' });

export function registerOAuthRoutes(app: FastifyInstance, d: OAuthRouteDeps): void {
  app.get(`${BASE}/authorize`, async (req, reply) => {
    const params = authorizeParams(req.query);
    const check = await d.oauth.checkAuthorize(params, d.issuer(req));
    if (check.kind === 'fatal') return sendPage(reply, 400, errorPage(check.message));
    if (check.kind === 'redirect') return reply.redirect(check.url, 302);
    const csrf = issueCsrf(req, reply);
    return sendPage(reply, 200, consentPage({ appName: check.app.name, scopes: check.scopes, params, csrf }));
  });

  app.post(`${BASE}/authorize`, async (req, reply) => {
    const form = (req.body ?? {}) as Record<string, unknown>;
    if (!csrfValid(req, form.csrf_token))
      return sendPage(
        reply,
        403,
        errorPage('The form expired or did not come from this site. Go back and start again.'),
      );
    const issuer = d.issuer(req);
    const params = authorizeParams(form);
    const check = await d.oauth.checkAuthorize(params, issuer);
    if (check.kind === 'fatal') return sendPage(reply, 400, errorPage(check.message));
    if (check.kind === 'redirect') return reply.redirect(check.url, 303);
    if (form.decision !== 'approve') {
      return reply.redirect(
        errorRedirect(check.redirectUri, 'access_denied', 'The user denied the request.', check.state, issuer),
        303,
      );
    }
    const login = typeof form.login === 'string' ? form.login.trim() : '';
    const password = typeof form.password === 'string' ? form.password : '';
    const again = (status: number, error: string) =>
      sendPage(
        reply,
        status,
        consentPage({
          appName: check.app.name,
          scopes: check.scopes,
          params,
          csrf: issueCsrf(req, reply),
          error,
          login,
        }),
      );
    try {
      await d.failures.loginAttempt(req.ip, login);
    } catch (e) {
      if (e instanceof AppError && e.code === 'RATE_LIMITED') {
        reply.header('retry-after', String(e.details?.retry_after ?? 60));
        return again(429, 'Too many sign-in attempts. Wait a minute and try again.');
      }
      throw e;
    }
    if (!login || !password || !(await d.verifyLogin(login, password))) {
      await d.failures
        .record(req.ip, {
          appId: check.app.id,
          login: login || null,
          detail: { where: 'consent', reason: 'bad_login' },
        })
        .catch((e: unknown) => {
          if (!(e instanceof AppError && e.code === 'RATE_LIMITED')) throw e;
        });
      return again(401, 'Wrong login or password.');
    }
    if (check.app.run_as_login && check.app.run_as_login !== login) {
      return again(403, `This application can only be authorised by the ERP user ${check.app.run_as_login}.`);
    }
    return reply.redirect(await d.oauth.issueCode(check, login, issuer, req.ip), 303);
  });

  const token = async (req: FastifyRequest, reply: FastifyReply) => {
    noStore(reply);
    try {
      const body = singleParams(req.body);
      const client = await authenticateClient(req, body);
      if (!body.grant_type) throw new OAuthError('invalid_request', 'grant_type is required');
      if (body.grant_type === 'authorization_code') return await d.oauth.exchangeCode(client, body, req.ip);
      if (body.grant_type === 'refresh_token') return await d.oauth.refresh(client, body, req.ip);
      throw new OAuthError(
        'unsupported_grant_type',
        'Only authorization_code and refresh_token are supported (no password or implicit grant).',
      );
    } catch (e) {
      if (!(e instanceof OAuthError)) throw e;
      if (e.status === 401) reply.header('www-authenticate', 'Basic realm="restapi"');
      return reply.code(e.status).send(e.body());
    }
  };

  async function authenticateClient(
    req: FastifyRequest,
    body: Record<string, string | undefined>,
  ): Promise<OAuthAppRow> {
    const creds = clientCredentials(req, body);
    const client = await d.apps.authenticateClient(creds.id, creds.secret);
    if (client) return client;
    await d.failures.record(req.ip, {
      detail: { where: 'token_endpoint', reason: 'invalid_client', client_id: creds.id.slice(0, 64) },
    });
    throw new OAuthError('invalid_client', 'Client authentication failed.');
  }

  app.post(`${BASE}/access_token`, token);
  app.post(`${BASE}/token`, token);

  app.post(`${BASE}/revoke`, async (req, reply) => {
    noStore(reply);
    try {
      const body = singleParams(req.body);
      await d.oauth.revoke(await authenticateClient(req, body), body.token, req.ip);
      return reply.code(200).send({});
    } catch (e) {
      if (!(e instanceof OAuthError)) throw e;
      if (e.status === 401) reply.header('www-authenticate', 'Basic realm="restapi"');
      return reply.code(e.status).send(e.body());
    }
  });
}

/** RFC 8414 metadata, at the root of the host (the issuer has no path). */
export function registerOAuthMetadata(app: FastifyInstance, d: Pick<OAuthRouteDeps, 'issuer'>): void {
  app.get('/.well-known/oauth-authorization-server', async (req, reply) => {
    reply.header('cache-control', 'public, max-age=300');
    const issuer = d.issuer(req);
    return {
      issuer,
      authorization_endpoint: `${issuer}${OAUTH_BASE}/authorize`,
      token_endpoint: `${issuer}${OAUTH_BASE}/access_token`,
      revocation_endpoint: `${issuer}${OAUTH_BASE}/revoke`,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      authorization_response_iss_parameter_supported: true,
      service_documentation: `${issuer}/restapi/1.0/openapi.json`,
    };
  });
}
