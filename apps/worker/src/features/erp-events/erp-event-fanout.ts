/**
 * An ERP event (from the change feed) becomes one job per consumer, each retried on its own: a chat
 * notification for every event, and for a posted customer invoice the push to the accounting
 * provider. Jobs carry a dedupe key derived from the event row, so a redelivered event adds nothing.
 */
import {
  type DerivedJobPayload,
  type ErpEventTopic,
  TOPIC_ACCOUNTING_PUSH_INVOICE,
  TOPIC_CHAT_NOTIFY,
  TOPIC_INVOICE_POSTED,
} from '@platform/contracts';
import type { Db } from '@platform/db';
import { enqueue, type OutboxRow } from '@platform/outbox';

type DerivedJobTopic = typeof TOPIC_CHAT_NOTIFY | typeof TOPIC_ACCOUNTING_PUSH_INVOICE;

export function fanOutErpEvent(db: Db, onQueued: () => void) {
  return async (row: OutboxRow<ErpEventTopic>): Promise<{ jobs: string[] }> => {
    const job: DerivedJobPayload = { eventTopic: row.topic, event: row.payload };
    const targets: DerivedJobTopic[] = [
      TOPIC_CHAT_NOTIFY,
      ...(row.topic === TOPIC_INVOICE_POSTED ? ([TOPIC_ACCOUNTING_PUSH_INVOICE] as const) : []),
    ];
    const queued = await db.transaction(async (tx) => {
      const out: string[] = [];
      for (const t of targets) {
        const id = await enqueue(tx, {
          tenantId: row.tenant_id,
          topic: t,
          aggregateId: row.aggregate_id ?? undefined,
          dedupeKey: `${t}:event-${row.id}`,
          payload: { ...job },
        });
        if (id !== null) out.push(t);
      }
      return out;
    });
    if (queued.length) onQueued();
    return { jobs: targets };
  };
}
