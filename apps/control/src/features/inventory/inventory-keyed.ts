/**
 * A write that a retry must not repeat (a receipt, the parts used on a job), through the one
 * idempotency primitive: with an Idempotency-Key the first answer is stored with the audit record
 * and replayed to a retry (the same key with another body is refused by `replayStored`).
 */
import { type Db, withTenant } from '@platform/db';
import { findAnswer, fingerprint, replayStored, storeAnswer } from '@platform/intake';
import type { WriteAnswer } from '@platform/kernel';

import type { AuditLog } from '../audit/audit-log.js';
import type { Principal } from '../auth/principal.js';
import { userActor } from '../sales/quotes.service.js';

export interface Keyed<B> {
  route: string;
  body: unknown;
  key: string | undefined;
  run: () => Promise<B>;
  audit: { action: string; target: { type: string; id: string }; detail: Record<string, unknown> };
  outcome: 'created' | 'updated';
}

export async function keyedWrite<B>(db: Db, audit: AuditLog, p: Principal, k: Keyed<B>): Promise<WriteAnswer<B>> {
  const fp = fingerprint(k.route, k.body);
  const stored = k.key && (await withTenant(db, p.tenantId, (tx) => findAnswer(tx, p.tenantId, k.route, k.key!)));
  if (stored) return replayStored<B>(stored, fp);
  const body = await k.run();
  await withTenant(db, p.tenantId, async (tx) => {
    await audit.record(tx, { ...userActor(p), ...k.audit });
    if (k.key)
      await storeAnswer(tx, p.tenantId, k.route, k.key, { fingerprint: fp, outcome: k.outcome, response: body });
  });
  return { outcome: k.outcome, body, replayed: false };
}
