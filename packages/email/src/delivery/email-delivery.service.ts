/**
 * The outbox batch handler of both email lanes. Before each send it checks the message row (a
 * message already sent is never sent again, whatever redelivers the outbox row) and the suppression
 * list (a suppressed address is skipped and the attempt recorded), both read for the whole batch in
 * one query; the batch's sends run together and its sent messages are recorded in one write once
 * they have all answered. Provider outcomes map onto the outbox:
 * a retryable failure retries with backoff, a rejected message goes to the dead letters with the
 * provider's reason, a rate limit waits as asked.
 */
import type { TOPIC_EMAIL_BULK, TOPIC_EMAIL_TRANSACTIONAL } from '@platform/contracts';
import type { Db } from '@platform/db';
import { type OutboxRow, PermanentFailure, RetryLater } from '@platform/outbox';
import { type EmailMessage, EmailSendError } from '@platform/providers';

import type { SuppressionService } from '../suppression/suppression.service.js';
import { type DeliveryState, getDeliveryStates, markAttempt, markSentMany } from './email-messages.repo.js';
import type { FailoverSender } from './failover.sender.js';

type EmailTopic = typeof TOPIC_EMAIL_TRANSACTIONAL | typeof TOPIC_EMAIL_BULK;
type Sent = { id: string; provider: string; providerMessageId: string };

/** Sends of one batch in flight at once. */
export const SEND_WAVE = 10;

export type DeliveryOutcome =
  | { status: 'sent'; provider: string; providerMessageId: string; failedOverFrom?: string }
  | { status: 'already_sent'; provider: string | null }
  | { status: 'suppressed'; reason: string };

export class EmailDeliveryService {
  constructor(
    private readonly db: Db,
    private readonly senders: FailoverSender,
    private readonly suppressions: SuppressionService,
  ) {}

  /** One row on its own (a batch of one). */
  async deliver(row: OutboxRow<EmailTopic>): Promise<DeliveryOutcome> {
    const [r] = await this.deliverBatch([row]);
    if (r!.status === 'rejected') throw r!.reason;
    return r!.value;
  }

  /** A batch: one outcome per row, in order; a rejected one carries the error the outbox acts on. */
  async deliverBatch(rows: OutboxRow<EmailTopic>[]): Promise<PromiseSettledResult<DeliveryOutcome>[]> {
    // The lanes' claim read the states already (claimed_with); a row handed over otherwise is read here.
    const current = rows.every((r) => r.claimed_with !== undefined)
      ? rows.map((r) => r.claimed_with as DeliveryState | null)
      : await getDeliveryStates(
          this.db,
          rows.map((r) => r.payload.id),
        );
    const sent: Sent[] = [];
    // At most SEND_WAVE sends at once (the SMTP pool has a few connections): a larger claim spreads its
    // database work over more mail without queueing more sends on the pool.
    const outcomes: PromiseSettledResult<DeliveryOutcome>[] = [];
    for (let i = 0; i < rows.length; i += SEND_WAVE)
      outcomes.push(
        ...(await Promise.allSettled(
          rows.slice(i, i + SEND_WAVE).map((r, j) => this.attempt(r.payload, current[i + j] ?? null, sent)),
        )),
      );
    try {
      await markSentMany(this.db, sent);
    } catch (e) {
      // Not recorded: those rows are retried (the message row still says queued), as a failed send is.
      return outcomes.map((o) =>
        o.status === 'fulfilled' && o.value.status === 'sent' ? { status: 'rejected', reason: e } : o,
      );
    }
    return outcomes;
  }

  /** Checks and sends one message; a sent one is added to `sent`, recorded with its batch. */
  private async attempt(m: EmailMessage, current: DeliveryState | null, sent: Sent[]): Promise<DeliveryOutcome> {
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
      sent.push({ id: m.id, provider: r.provider, providerMessageId: r.providerMessageId });
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
