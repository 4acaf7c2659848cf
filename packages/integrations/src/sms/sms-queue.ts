/**
 * Queuing one outbound SMS inside the caller's transaction: the message row and its `sms.send`
 * outbox job commit with the caller's own write (the control plane queues a quote's text with the
 * send it belongs to, so a retried send never texts twice). The worker delivers the job.
 */
import { TOPIC_SMS_SEND } from '@platform/contracts';
import type { Queryable } from '@platform/db';
import { AppError } from '@platform/kernel';
import { enqueue } from '@platform/outbox';

import * as repo from './sms.repo.js';

export const SMS_BODY_MAX = 1600;

export async function queueSmsIn(
  tx: Queryable,
  m: { tenantId: string; from: string; to: string; body: string; keywordReply?: boolean },
): Promise<string> {
  if (!m.body.trim() || m.body.length > SMS_BODY_MAX)
    throw new AppError('VALIDATION_FAILED', `body must be 1 to ${SMS_BODY_MAX} characters.`, {
      fieldIssues: [{ field: 'body', rule: 'length', message: `must be 1 to ${SMS_BODY_MAX} characters` }],
    });
  const id = (await repo.insertMessage(tx, {
    tenant_id: m.tenantId,
    direction: 'outbound',
    line_number: m.from,
    contact_number: m.to,
    body: m.body,
    provider_message_id: null,
    status: 'queued',
    keyword_reply: m.keywordReply ?? false,
  }))!;
  await enqueue(tx, {
    tenantId: m.tenantId,
    topic: TOPIC_SMS_SEND,
    aggregateId: id,
    dedupeKey: `sms-send:${id}`,
    payload: { messageId: id },
  });
  return id;
}
