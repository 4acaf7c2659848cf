/**
 * What a write did, in the domain's words. Services answer it; the one HTTP mapping is the route's
 * (`sendAnswer` in http-kit), so a stored idempotent answer keeps the outcome, never a status.
 */
export type WriteOutcome = 'created' | 'updated';

/** A write's answer: its outcome, the body the client gets, and whether it is a replay of an earlier one. */
export interface WriteAnswer<B = unknown> {
  outcome: WriteOutcome;
  body: B;
  replayed: boolean;
}
