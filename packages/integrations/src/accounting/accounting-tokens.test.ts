/**
 * Token refresh without a platform transaction: the provider call happens between two short
 * statements (a lease, then a compare-and-set), so a slow provider never holds the platform database,
 * two refreshers make one provider call, and a row that changed meanwhile is never overwritten.
 */
import { randomBytes } from 'node:crypto';

import { createTestDb, type Db, migratePlatform, type TestDb } from '@platform/db';
import type { AccountingOAuth, AccountingTokenSet, RefreshInput } from '@platform/providers';
import { createSecretBox, parseKeyring } from '@platform/secrets';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { IntegrationSettingsService } from '../settings/integration-settings.service.js';
import { updateAccounting } from '../settings/settings.repo.js';
import { accountingConnectionSchema } from '../settings/settings.schemas.js';
import { findById } from './accounting.repo.js';
import { AccountingTokens } from './accounting-tokens.js';

let t: TestDb;
let tenant: string;
let settings: IntegrationSettingsService;
let id: string;

/** A provider whose refresh waits until the test lets it answer, recording what it was given. */
class GatedOAuth implements Pick<AccountingOAuth, 'refresh'> {
  calls: RefreshInput[] = [];
  private release: (() => void)[] = [];
  duringCall: () => Promise<void> = async () => undefined;
  async refresh(input: RefreshInput): Promise<AccountingTokenSet> {
    this.calls.push(input);
    await this.duringCall();
    await new Promise<void>((r) => this.release.push(r));
    const n = this.calls.length;
    return {
      accessToken: `access-${n}`,
      refreshToken: `refresh-${n}`,
      expiresAt: new Date(Date.now() + 30 * 60_000),
      scope: '',
    };
  }
  /** Lets every waiting refresh answer, once one has started. */
  async answer(): Promise<void> {
    while (!this.release.length) await new Promise((r) => setImmediate(r));
    this.release.splice(0).forEach((r) => r());
  }
}

const tokensWith = (oauth: GatedOAuth, db: Db = t.db) =>
  new AccountingTokens(db, settings, oauth as unknown as AccountingOAuth);
const row = async () => (await findById(t.db, id))!;
const openRefresh = async (tokens: AccountingTokens) => {
  const r = await row();
  return tokens.open(r, 'refresh_token', r.refresh_token_enc!);
};

beforeAll(async () => {
  t = await createTestDb(process.env, { migrated: true });
  await migratePlatform(t.db);
  tenant = (await t.db.query<{ id: string }>(`INSERT INTO tenants (slug, name) VALUES ('a', 'A') RETURNING id`))
    .rows[0]!.id;
  settings = new IntegrationSettingsService(
    t.db,
    createSecretBox(parseKeyring(`k1:${randomBytes(32).toString('base64')}`)),
    () => undefined,
  );
  await settings.setAccountingConnection(
    tenant,
    accountingConnectionSchema.parse({
      name: 'Xero',
      client_id: 'CLIENT-1',
      client_secret: 'secret-1',
      redirect_uri: 'https://erp.example.com/acct/callback',
      webhook_key: 'webhook-key-0123456789',
    }),
  );
  id = (await t.db.query<{ id: string }>('SELECT id FROM accounting_connections')).rows[0]!.id;
}, 120_000);
afterAll(() => t.drop());

beforeEach(async () => {
  // Connected, with an access token about to expire: the next caller must refresh.
  const r = await row();
  const tokens = tokensWith(new GatedOAuth());
  await updateAccounting(t.db, id, {
    status: 'connected',
    provider_tenant_id: 'org-1',
    access_token_enc: tokens.seal(r, 'access_token', 'access-old'),
    refresh_token_enc: tokens.seal(r, 'refresh_token', 'refresh-old'),
    token_expires_at: new Date(Date.now() + 60_000),
    refresh_lease_until: null,
  });
});

describe('accounting token refresh', () => {
  it('opens no platform transaction, so other queries run while the provider answers', async () => {
    const oauth = new GatedOAuth();
    let transactions = 0;
    const db: Db = {
      ...t.db,
      query: t.db.query.bind(t.db),
      transaction: (fn) => (transactions++, t.db.transaction(fn)),
    };
    let seenDuringCall: unknown;
    oauth.duringCall = async () => {
      seenDuringCall = (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM accounting_connections'))
        .rows[0]!.n;
    };
    const got = tokensWith(oauth, db).auth(await row());
    await oauth.answer();
    expect(await got).toEqual({ accessToken: 'access-1', tenantId: 'org-1' });
    expect(seenDuringCall).toBe(1);
    expect(transactions).toBe(0);
    expect(oauth.calls[0]!.refreshToken).toBe('refresh-old');
    expect(await openRefresh(tokensWith(oauth))).toBe('refresh-1');
    expect((await row()) as unknown).toMatchObject({ refresh_lease_until: null });
  });

  it('makes one provider call for two workers that need a token at once; both get its token', async () => {
    const oauth = new GatedOAuth();
    const [a, b] = [tokensWith(oauth), tokensWith(oauth)]; // two processes: no shared in-flight map
    const r = await row();
    const both = Promise.all([a.auth(r), b.auth(r)]);
    await oauth.answer();
    const got = await both;
    expect(oauth.calls).toHaveLength(1);
    expect(got.map((x) => x.accessToken)).toEqual(['access-1', 'access-1']);
    expect(await openRefresh(a)).toBe('refresh-1');
  });

  it('never overwrites tokens stored while it was refreshing (connected again meanwhile)', async () => {
    const oauth = new GatedOAuth();
    const tokens = tokensWith(oauth);
    const got = tokens.auth(await row());
    while (!oauth.calls.length) await new Promise((r) => setImmediate(r));
    const r = await row();
    await updateAccounting(t.db, id, {
      access_token_enc: tokens.seal(r, 'access_token', 'access-reconnected'),
      refresh_token_enc: tokens.seal(r, 'refresh_token', 'refresh-reconnected'),
      token_expires_at: new Date(Date.now() + 30 * 60_000),
    });
    await oauth.answer();
    expect(await got).toEqual({ accessToken: 'access-reconnected', tenantId: 'org-1' });
    expect(await openRefresh(tokens)).toBe('refresh-reconnected');
  });
});
