/**
 * The outbox handler of both email lanes. Before each send it checks the message row (a message
 * already sent is never sent again, whatever redelivers the outbox row) and the suppression list (a
 * suppressed address is skipped and the attempt recorded), both read with the rest of its batch in
 * one query. Provider outcomes map onto the outbox:
 * a retryable failure retries with backoff, a rejected message goes to the dead letters with the
 * provider's reason, a rate limit waits as asked.
 */
import type { TOPIC_EMAIL_BULK, TOPIC_EMAIL_TRANSACTIONAL } from '@platform/contracts';
import type { Db } from '@platform/db';
import { type OutboxRow, PermanentFailure, RetryLater } from '@platform/outbox';
import { type EmailMessage, EmailSendError } from '@platform/providers';
import DataLoader from 'dataloader';

import type { SuppressionService } from '../suppression/suppression.service.js';
import { getMessagesForDelivery, markAttempt, markSent } from './email-messages.repo.js';

type EmailTopic = typeof TOPIC_EMAIL_TRANSACTIONAL | typeof TOPIC_EMAIL_BULK;
import type { FailoverSender } from './failover.sender.js';

export type DeliveryOutcome =
  | { status: 'sent'; provider: string; providerMessageId: string; failedOverFrom?: string }
  | { status: 'already_sent'; provider: string | null }
  | { status: 'suppressed'; reason: string };

export class EmailDeliveryService {
  /**
   * The rows of a batch's messages in one read: the relay starts a batch's deliveries together, so
   * their loads fall in the same tick. Not cached: every delivery reads the row as it is now.
   */
  private readonly rows = new DataLoader((ids: readonly string[]) => getMessagesForDelivery(this.db, ids), {
    cache: false,
  });

  constructor(
    private readonly db: Db,
    private readonly senders: FailoverSender,
    private readonly suppressions: SuppressionService,
  ) {}

  async deliver(row: OutboxRow<EmailTopic>): Promise<DeliveryOutcome> {
    const m: EmailMessage = row.payload;
    const current = await this.rows.load(m.id);
    if (!current) throw new PermanentFailure(`email message ${m.id} has no email_messages row`);
    if (current.status === 'sent') return { status: 'already_sent', provider: current.provider };
    if (current.status === 'suppressed') return { status: 'suppressed', reason: current.last_error ?? 'suppressed' };
    const blocked = current.blocked;
    if (blocked) {
      const reason = `suppressed: ${blocked.reason} (${blocked.scope === 'platform' ? 'platform-wide' : 'this tenant'}) reported by ${blocked.provider} at ${new Date(blocked.created_at).toISOString()}`;
      await markAttempt(this.db, m.id, 'suppressed', reason);
      return { status: 'suppressed', reason };
    }
    try {
      const r = m.lane === 'bulk' ? await this.senders.sendBulk(m) : await this.senders.send(m);
      await markSent(this.db, m.id, r.provider, r.providerMessageId);
      return {
        status: 'sent',
        provider: r.provider,
        providerMessageId: r.providerMessageId,
        ...(r.failedOverFrom ? { failedOverFrom: r.failedOverFrom } : {}),
      };
    } catch (e) {
      if (!(e instanceof EmailSendError)) {
        await markAttempt(this.db, m.id, 'queued', (e as Error).message);
        throw e;
      }
      if (e.kind === 'recipient_inactive') {
        await this.suppressions.recordInactive(m.tenantId, m.to.address, e.provider, e.message);
        await markAttempt(this.db, m.id, 'suppressed', `suppressed: ${e.message}`);
        return { status: 'suppressed', reason: e.message };
      }
      if (e.kind === 'rejected') {
        await markAttempt(this.db, m.id, 'failed', e.message);
        throw new PermanentFailure(e.message, { cause: e });
      }
      await markAttempt(this.db, m.id, 'queued', e.message);
      if (e.kind === 'rate_limited') throw new RetryLater(e.message, e.retryAfterMs ?? 30_000);
      throw e;
    }
  }
}
