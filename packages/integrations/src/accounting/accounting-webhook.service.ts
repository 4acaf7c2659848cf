/**
 * POST /acct/webhook and its job. Receiving: the signature (base64 HMAC-SHA256 of the raw body
 * with the Webhook Key) is checked in constant time; intent-to-receive probes and every correctly
 * signed batch get 200 with an empty body, anything else 401, and nothing slow happens here (the
 * provider wants an answer within 5 s): each INVOICE UPDATE event is de-duplicated on
 * tenantId+resourceId+eventDateUtc and becomes an outbox job, handled by
 * accounting-reconcile.service.ts. A credit note's own events (CREDITNOTE) need no job: allocating
 * it changes the invoice, which sends its INVOICE UPDATE.
 */
import { type AccountingWebhookJob, TOPIC_ACCOUNTING_WEBHOOK } from '@platform/contracts';
import type { Db } from '@platform/db';
import { enqueue } from '@platform/outbox';
import { type AccountingWebhookRequest, type AccountingWebhookVerifier, webhookEventKey } from '@platform/providers';

import { acceptedWebhookKeys } from '../settings/settings.repo.js';
import { recordWebhookReceipt } from '../webhooks/webhook-receipts.repo.js';
import * as repo from './accounting.repo.js';
import type { AccountingTokens } from './accounting-tokens.js';

export type { AccountingWebhookJob } from '@platform/contracts';

/** What became of a webhook request; the route maps it to the provider's expected HTTP answer. */
export type AccountingWebhookOutcome =
  | { kind: 'accepted'; queued: number }
  | { kind: 'unauthenticated'; reason: string }
  | { kind: 'malformed'; reason: string };

export class AccountingWebhookService {
  constructor(
    private readonly db: Db,
    private readonly tokens: AccountingTokens,
    private readonly verifier: AccountingWebhookVerifier,
    private readonly onQueued: () => void = () => {},
  ) {}

  /** `request.text` is the body decoded by its declared charset (UTF-8 when absent); the signature covers `rawBody`. */
  async receive(tenantId: string, request: AccountingWebhookRequest): Promise<AccountingWebhookOutcome> {
    // The current Webhook Key of each connection, and a replaced one while its rotation overlap lasts.
    const keys = (await repo.listConnections(this.db, tenantId)).flatMap((r) =>
      acceptedWebhookKeys(r).map((sealed) => this.tokens.open(r, 'webhook_key', sealed)),
    );
    if (!keys.some((k) => this.verifier.verify(request, k)))
      return { kind: 'unauthenticated', reason: 'bad or missing signature' };
    let batch;
    try {
      batch = this.verifier.parse(request);
    } catch {
      return { kind: 'malformed', reason: 'malformed payload' };
    }
    if (batch.isIntentToReceive) return { kind: 'accepted', queued: 0 };
    const events = batch.events.filter((e) => e.eventCategory === 'INVOICE' && e.eventType === 'UPDATE');
    const queued = await this.db.transaction(async (tx) => {
      let n = 0;
      for (const e of events) {
        const key = webhookEventKey(e);
        if (!(await recordWebhookReceipt(tx, tenantId, 'accounting', key))) continue;
        const payload: AccountingWebhookJob = {
          providerTenantId: e.tenantId,
          invoiceId: e.resourceId,
          eventDateUtc: e.eventDateUtc,
        };
        if (
          (await enqueue(tx, {
            tenantId,
            topic: TOPIC_ACCOUNTING_WEBHOOK,
            aggregateId: e.resourceId,
            dedupeKey: `accounting-webhook:${key}`,
            payload: { ...payload },
          })) !== null
        )
          n++;
      }
      return n;
    });
    if (queued) this.onQueued();
    return { kind: 'accepted', queued };
  }
}
