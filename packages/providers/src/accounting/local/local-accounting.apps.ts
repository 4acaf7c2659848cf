/**
 * The apps registered at the LOCAL accounting stand-in. At Xero each company using its own app has
 * its own Client ID and secret, Redirect URIs, Webhook Key and webhook URL, and its grants reach only
 * the organisations connected to that app; the API host is the same for all. Requests are routed to
 * an app by client id (authorize, token, revocation) or by token (API calls); an organisation's events
 * go to its app's webhook URL, signed with its app's key.
 */
import { randomUUID } from 'node:crypto';

import { LocalCredits } from './local-accounting.credits.js';
import type { LocalTenant } from './local-accounting.gate.js';
import { type LedgerOptions, LocalLedger } from './local-accounting.ledger.js';
import { type LocalGrant, LocalOAuthState } from './local-accounting.oauth.js';
import { LocalWebhookSender } from './local-accounting.webhooks.js';

/** One app at the provider and the organisations connected to it. */
export interface LocalAccountingApp {
  clientId: string;
  clientSecret: string;
  /** Registered redirect URIs, matched exactly (a trailing slash matters). */
  redirectUris: string[];
  webhookKey: string;
  webhookUrl?: string;
  /** Organisations connected on authorize; default one "Local Demo Company". */
  tenants?: { tenantId?: string; tenantName: string }[];
}

export interface LocalApp {
  clientId: string;
  clientSecret: string;
  oauth: LocalOAuthState;
  webhooks: LocalWebhookSender;
  tenantIds: string[];
  webhookUrl: string | undefined;
}

export interface LocalAppsContext {
  ledger: LedgerOptions;
  allowedScopes: string[];
  consent: () => string[] | undefined;
  apiBase: () => string;
  nowMs: () => number;
}

export class LocalAccountingApps {
  readonly list: LocalApp[] = [];
  /** Every organisation of every app, by id. */
  readonly tenants = new Map<string, LocalTenant>();

  constructor(
    apps: LocalAccountingApp[],
    private readonly ctx: LocalAppsContext,
  ) {
    for (const a of apps) this.add(a);
  }

  /** Registers one more app (a company that signs up while the host runs); returns its organisation ids. */
  add(a: LocalAccountingApp): string[] {
    const ctx = this.ctx;
    if (!a.webhookKey || !a.clientId || !a.clientSecret)
      throw new Error('local accounting: clientId, clientSecret and webhookKey are required');
    if (this.list.some((x) => x.clientId === a.clientId))
      throw new Error(`local accounting: client ${a.clientId} registered twice`);
    const tenantIds = (a.tenants ?? [{ tenantName: 'Local Demo Company' }]).map((t) => {
      const tenantId = t.tenantId ?? randomUUID();
      if (this.tenants.has(tenantId)) throw new Error(`local accounting: organisation ${tenantId} registered twice`);
      const ledger = new LocalLedger(ctx.ledger, ctx.nowMs);
      const credits = new LocalCredits(ledger, ctx.nowMs);
      this.tenants.set(tenantId, {
        tenantId,
        tenantName: t.tenantName,
        ledger,
        credits,
        calls: [],
        idempotent: new Map(),
      });
      return tenantId;
    });
    const app: LocalApp = {
      clientId: a.clientId,
      clientSecret: a.clientSecret,
      tenantIds,
      webhookUrl: a.webhookUrl,
      // Read at each delivery: setWebhookUrl changes where later events go.
      webhooks: new LocalWebhookSender(
        { webhookKey: a.webhookKey, webhookUrl: () => app.webhookUrl, apiBase: ctx.apiBase },
        ctx.nowMs,
      ),
      oauth: new LocalOAuthState(
        {
          clientId: a.clientId,
          clientSecret: a.clientSecret,
          redirectUris: a.redirectUris,
          tenantIds: () => tenantIds,
          allowedScopes: ctx.allowedScopes,
          consent: ctx.consent,
        },
        ctx.nowMs,
      ),
    };
    this.list.push(app);
    return tenantIds;
  }

  get first(): LocalApp {
    return this.list[0]!;
  }

  /** The app a client id names; the first app otherwise (its own checks then refuse the client). */
  byClient(clientId: string | undefined): LocalApp {
    return this.list.find((a) => a.clientId === clientId) ?? this.first;
  }

  byTenant(tenantId: string): LocalApp {
    return this.list.find((a) => a.tenantIds.includes(tenantId)) ?? this.first;
  }

  /** A token is issued by one app only (tokens are random): the first that knows it answers. */
  checkAccess(access: string): { grant: LocalGrant } | { error: string } {
    let refused: { error: string } = { error: 'AuthenticationUnsuccessful' };
    for (const a of this.list) {
      const r = a.oauth.checkAccess(access);
      if (!('error' in r)) return r;
      refused = r;
    }
    return refused;
  }

  /** The app whose grant a token (refresh, rotated refresh or access token) belongs to, with the grant. */
  findGrant(token: string): { app: LocalApp; grant: LocalGrant } | undefined {
    for (const app of this.list) {
      const grant = app.oauth.findGrant(token);
      if (grant) return { app, grant };
    }
    return undefined;
  }

  invoiceUpdated(tenantId: string, invoiceId: string): void {
    this.byTenant(tenantId).webhooks.invoiceUpdated(tenantId, invoiceId);
  }

  event(...a: Parameters<LocalWebhookSender['event']>): void {
    this.byTenant(a[0]).webhooks.event(...a);
  }

  async flush(): Promise<void> {
    for (const a of this.list) await a.webhooks.flush();
  }
}
