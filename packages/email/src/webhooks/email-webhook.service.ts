/**
 * Bounce and complaint webhooks of the email providers, feeding the shared suppression list. Each
 * provider's receiver (a port; the composition root picks the adapters) authenticates the request and
 * normalises its events; this service decides the tenant of each event and applies it. A refused
 * request changes nothing.
 */
import type { Db } from '@platform/db';
import { AppError } from '@platform/kernel';
import type { EmailFeedbackEvent, EmailWebhookReceiver, EmailWebhookRequest } from '@platform/providers';
import { findTenant } from '@platform/tenancy';

import { tenantOfProviderMessage } from '../delivery/email-messages.repo.js';
import type { SuppressionService } from '../suppression/suppression.service.js';

export interface FeedbackOutcome {
  received: number;
  suppressed: number;
  ignored: number;
}

export class EmailWebhookService {
  private readonly receivers: Map<string, EmailWebhookReceiver>;

  constructor(
    private readonly db: Db,
    private readonly suppressions: SuppressionService,
    receivers: EmailWebhookReceiver[],
  ) {
    this.receivers = new Map(receivers.map((r) => [r.route, r]));
  }

  /** One webhook route per provider (`/email/webhook/<route>`). */
  get routes(): string[] {
    return [...this.receivers.keys()];
  }

  async receive(route: string, request: EmailWebhookRequest): Promise<FeedbackOutcome & { confirmed?: boolean }> {
    const receiver = this.receivers.get(route);
    if (!receiver) throw new AppError('NOT_FOUND', `No email webhook at ${route}.`);
    const r = await receiver.receive(request);
    if (!r.ok)
      throw new AppError(r.reason === 'unauthenticated' ? 'EMAIL_WEBHOOK_UNAUTHENTICATED' : 'BAD_REQUEST', r.detail);
    const out = await this.apply(r.events, receiver.provider);
    return r.confirmed ? { ...out, confirmed: true } : out;
  }

  private async apply(events: EmailFeedbackEvent[], provider: string): Promise<FeedbackOutcome> {
    const out = { received: events.length, suppressed: 0, ignored: 0 };
    for (const e of events) {
      const tenantId = await this.tenantOf(e, provider);
      if (!tenantId) {
        out.ignored++;
        continue;
      }
      if (await this.suppressions.applyFeedback(tenantId, e)) out.suppressed++;
    }
    return out;
  }

  /** Our own record of the message decides the tenant; the echoed tag only when we have none. */
  private async tenantOf(e: EmailFeedbackEvent, provider: string): Promise<string | undefined> {
    if (e.providerMessageId) {
      const t = await tenantOfProviderMessage(this.db, provider, e.providerMessageId);
      if (t) return t;
    }
    if (e.tenantHint && /^[0-9a-f-]{36}$/i.test(e.tenantHint)) return (await findTenant(this.db, e.tenantHint))?.id;
    return undefined;
  }
}
