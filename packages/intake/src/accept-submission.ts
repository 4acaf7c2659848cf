/**
 * The intake algorithm, once, for every host that accepts submissions (the landing's public forms,
 * the control plane's office intake): replay the stored answer → (host check) → lock the fingerprint →
 * find a recent equal submission → insert the new one with its outbox row → store the answer, all
 * before the caller answers. Each host keeps only what is its own: how it builds the row and its
 * outbox message, its bot check, its transaction scope.
 */
import type { Queryable } from '@platform/db';
import type { WriteAnswer } from '@platform/kernel';

import { replayStored, requestInProgress } from './idempotency.js';
import { findAnswer, storeAnswer } from './idempotency-keys.repo.js';
import { findRecentSubmission, lockFingerprint } from './submissions.repo.js';

export type AcceptedBody = { id: string; status: 'accepted' };

export interface SubmissionAcceptance {
  tenantId: string;
  /** The stored answers' namespace ('estimate', 'control:lead', …). */
  route: string;
  key: string | undefined;
  fingerprint: string;
  dedupeWindowSeconds: number;
  /** The id a new submission gets (its payload may already carry it). */
  id: string;
  /** One transaction in the host's scope. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** After a replay is ruled out and before anything is written (the landing's bot check). */
  beforeWrite?(): Promise<unknown>;
  /** Writes the new submission's row and its outbox message under `id`. */
  insert(tx: Queryable, id: string): Promise<void>;
  /** After the commit, when a new submission was written (an in-process worker may deliver at once). */
  onCreated?(): void;
}

class KeyTaken extends Error {}

export async function acceptSubmission(a: SubmissionAcceptance): Promise<WriteAnswer<AcceptedBody>> {
  const { key, tenantId, route, fingerprint: fp } = a;
  if (key !== undefined) {
    // Answered before the bot check: the first request already spent its token.
    const stored = await a.transaction((tx) => findAnswer(tx, tenantId, route, key));
    if (stored) return replayStored(stored, fp);
  }
  await a.beforeWrite?.();
  const done = await a
    .transaction(async (tx) => {
      await lockFingerprint(tx, tenantId, fp);
      const earlier = await findRecentSubmission(tx, tenantId, fp, a.dedupeWindowSeconds);
      const id = earlier ?? a.id;
      if (!earlier) await a.insert(tx, id);
      const response: AcceptedBody = { id, status: 'accepted' };
      const stored =
        key === undefined ||
        (await storeAnswer(tx, tenantId, route, key, { fingerprint: fp, outcome: 'created', response }));
      // Another request with this key committed first: roll ours back and answer as it did.
      if (!stored) throw new KeyTaken();
      return { outcome: 'created' as const, body: response, replayed: earlier !== undefined };
    })
    .catch(async (e: unknown): Promise<WriteAnswer<AcceptedBody>> => {
      if (!(e instanceof KeyTaken) || key === undefined) throw e;
      const stored = await a.transaction((tx) => findAnswer(tx, tenantId, route, key));
      if (!stored) throw requestInProgress();
      return replayStored(stored, fp);
    });
  if (!done.replayed) a.onCreated?.();
  return done;
}
