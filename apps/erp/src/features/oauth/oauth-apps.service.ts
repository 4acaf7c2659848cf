/**
 * OAuth2 applications: name, generated client id and secret (the secret shown once, stored as
 * SHA-256), redirect URIs compared as exact strings, and the scopes the application may request.
 */
import { type AuditService, formatScopes, newSecret, parseScopes, sameSecret, sha256 } from '@platform/credentials';
import type { Db } from '@platform/db';
import { AppError } from '@platform/kernel';

import { type OAuthAppRow, OAuthAppsRepo } from './oauth-apps.repo.js';
import type { OAuthGrantsRepo } from './oauth-grants.repo.js';

export interface OAuthAppInfo {
  id: number;
  name: string;
  clientId: string;
  redirectUris: string[];
  scopes: string[];
  runAsLogin: string | null;
  createdAt: string;
  revokedAt: string | null;
}

export const toAppInfo = (r: OAuthAppRow): OAuthAppInfo => ({
  id: r.id,
  name: r.name,
  clientId: r.client_id,
  redirectUris: r.redirect_uris.split('\n'),
  scopes: r.scopes.split(' '),
  runAsLogin: r.run_as_login,
  createdAt: new Date(r.created_at).toISOString(),
  revokedAt: r.revoked_at ? new Date(r.revoked_at).toISOString() : null,
});

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** One URI per line; each absolute, https (http only on loopback), without fragment or wildcard. */
export function parseRedirectUris(input: string | string[]): string[] {
  const lines = (Array.isArray(input) ? input.join('\n') : input)
    .split('\n')
    .map((l) => l.replace(/\r$/, ''))
    .filter((l) => l.trim() !== '');
  const bad = (why: string) =>
    new AppError('VALIDATION_FAILED', why, { fieldIssues: [{ field: 'redirect_uris', rule: 'format', message: why }] });
  if (!lines.length) throw bad('At least one redirect URI is required');
  for (const l of lines) {
    let u: URL;
    try {
      u = new URL(l);
    } catch {
      throw bad(`"${l}" is not an absolute URL`);
    }
    if (l !== l.trim() || l.includes('*') || u.hash || l.includes('#'))
      throw bad(`"${l}" must have no spaces, wildcard or fragment`);
    if (u.protocol !== 'https:' && !(u.protocol === 'http:' && LOOPBACK.has(u.hostname)))
      throw bad(`"${l}" must be https (http only on loopback)`);
  }
  return [...new Set(lines)];
}

export class OAuthAppsService {
  private readonly repo: OAuthAppsRepo;

  constructor(
    private readonly db: Db,
    tenantId: string,
    private readonly audit: AuditService,
    private readonly grants: OAuthGrantsRepo,
  ) {
    this.repo = new OAuthAppsRepo(db, tenantId);
  }

  async create(input: {
    name: string;
    redirectUris: string | string[];
    scope: string | string[];
    runAsLogin?: string | null;
  }): Promise<{ clientSecret: string; app: OAuthAppInfo }> {
    const name = input.name.trim();
    if (!name)
      throw new AppError('VALIDATION_FAILED', 'An application needs a name', {
        fieldIssues: [{ field: 'name', rule: 'required', message: 'required' }],
      });
    const redirectUris = parseRedirectUris(input.redirectUris).join('\n');
    const scopes = formatScopes(parseScopes(input.scope));
    const clientId = newSecret('erpc_').slice(0, 5 + 22);
    const clientSecret = newSecret('erps_');
    const row = await this.db.transaction(async (q) => {
      const r = await this.repo.insert(
        {
          name,
          clientId,
          secretHash: sha256(clientSecret),
          redirectUris,
          scopes,
          runAsLogin: input.runAsLogin?.trim() || null,
        },
        q,
      );
      await this.audit.record(
        { event: 'app_created', appId: r.id, login: r.run_as_login, detail: { client_id: clientId, scopes } },
        q,
      );
      return r;
    });
    return { clientSecret, app: toAppInfo(row) };
  }

  async list(): Promise<OAuthAppInfo[]> {
    return (await this.repo.list()).map(toAppInfo);
  }

  /** Revoking an application ends every token it holds. */
  async revoke(id: number): Promise<OAuthAppInfo> {
    const row = await this.db.transaction(async (q) => {
      const r = await this.repo.revoke(id, q);
      if (r) {
        await this.grants.revokeApp(r.id, q);
        await this.audit.record({ event: 'app_revoked', appId: r.id, detail: { client_id: r.client_id } }, q);
      }
      return r;
    });
    if (!row) throw new AppError('NOT_FOUND', `No live OAuth application ${id}`);
    return toAppInfo(row);
  }

  /** A new secret replaces the old one at once; issued tokens stay valid. */
  async rotateSecret(id: number): Promise<{ clientSecret: string; app: OAuthAppInfo }> {
    const clientSecret = newSecret('erps_');
    const row = await this.db.transaction(async (q) => {
      const r = await this.repo.setSecret(id, sha256(clientSecret), q);
      if (r)
        await this.audit.record({ event: 'app_secret_rotated', appId: r.id, detail: { client_id: r.client_id } }, q);
      return r;
    });
    if (!row) throw new AppError('NOT_FOUND', `No live OAuth application ${id}`);
    return { clientSecret, app: toAppInfo(row) };
  }

  findByClientId(clientId: string): Promise<OAuthAppRow | undefined> {
    return this.repo.findLiveByClientId(clientId);
  }

  /** The application when `secret` is its client secret, else undefined. */
  async authenticateClient(clientId: string, secret: string): Promise<OAuthAppRow | undefined> {
    const app = await this.repo.findLiveByClientId(clientId);
    if (!app || !sameSecret(app.client_secret_hash, sha256(secret))) return undefined;
    return app;
  }
}
