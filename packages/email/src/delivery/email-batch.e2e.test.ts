/**
 * A lane's batch end to end (SMTP on loopback): the claim brings each message's state, the sends
 * run together, the sent ones are recorded in one write; a batch whose worker died is claimed again
 * after its lease and every mail still arrives once.
 */
import { claimBatch } from '@platform/outbox';
import { afterAll, beforeAll, expect, it } from 'vitest';

import { type EmailHarness, startEmailHarness } from '../test-support/email-harness.js';
import { EmailDeliveryService, SEND_WAVE } from './email-delivery.service.js';
import { createEmailLanes } from './email-lanes.js';
import type { FailoverSender } from './failover.sender.js';

let h: EmailHarness;
beforeAll(async () => {
  h = await startEmailHarness();
});
afterAll(async () => h?.close());

const silent = { info() {}, warn() {}, error() {} };
const queue = (to: string) =>
  h.lanes.services.outbox.enqueue({
    tenantId: h.beta,
    template: 'password_reset',
    to: { address: to },
    key: to,
    data: { resetUrl: `https://app.beta.test/reset?for=${to}` },
  });
const statuses = async (ids: string[]) =>
  (
    await h.t.db.query<{ id: string; status: string; attempts: number }>(
      'SELECT id, status, attempts FROM email_messages WHERE id = ANY($1::uuid[])',
      [ids],
    )
  ).rows
    .sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id))
    .map((r) => [r.status, r.attempts]);
const arrived = (to: string) => h.smtp.mails.filter((m) => m.envelopeTo.includes(to)).length;

it('sends a batch together, skips its suppressed recipient and records each outcome', async () => {
  await h.lanes.services.suppressions.recordInactive(h.beta, 'gone@example.com', 'postmark', 'hard bounce');
  const to = ['b1@example.com', 'gone@example.com', 'b2@example.com'];
  const ids = [];
  for (const address of to) ids.push((await queue(address)).messageId);
  expect(await h.lanes.transactional.tick()).toBe(3);
  await h.smtp.waitFor(2);
  expect(to.map(arrived)).toEqual([1, 0, 1]);
  expect(await statuses(ids)).toEqual([
    ['sent', 1],
    ['suppressed', 1],
    ['sent', 1],
  ]);
});

it('a batch claimed by a worker that died is claimed again after its lease, and each mail arrives once', async () => {
  const to = ['c1@example.com', 'c2@example.com'];
  const ids = [];
  for (const address of to) ids.push((await queue(address)).messageId);
  await claimBatch(h.t.db, 'died', 10, ['email.transactional']); // claimed, then the worker was killed
  const lanes = createEmailLanes({
    config: h.config,
    db: h.t.db,
    logger: silent,
    workerId: 'survivor',
    services: h.lanes.services,
    relay: { visibilityTimeoutMs: 60_000, sweepEveryMs: 0 },
  });
  expect(await lanes.transactional.tick()).toBe(0); // its lease still runs: not taken
  const before = h.smtp.mails.length;
  await h.t.db.query(`UPDATE outbox SET locked_at = now() - interval '2 minutes' WHERE locked_by = 'died'`);
  expect(await lanes.transactional.tick()).toBe(2);
  await h.smtp.waitFor(before + 2);
  expect(to.map(arrived)).toEqual([1, 1]);
  // Killed again after the sent write but before the outbox's `done`: redelivered, not re-sent.
  await h.t.db.query(
    `UPDATE outbox SET status = 'processing', locked_by = 'died', locked_at = now() - interval '2 minutes'
     WHERE aggregate_id = ANY($1::text[])`,
    [ids],
  );
  expect(await lanes.transactional.tick()).toBe(2);
  await new Promise((r) => setTimeout(r, 100));
  expect(to.map(arrived)).toEqual([1, 1]);
  expect(await statuses(ids)).toEqual([
    ['sent', 1],
    ['sent', 1],
  ]);
  const done = await h.t.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM outbox WHERE aggregate_id = ANY($1::text[]) AND status = 'done'`,
    [ids],
  );
  expect(done.rows[0]!.n).toBe(2);
  await lanes.transactional.stop();
});

it('sends a large claim a wave at a time, never more than SEND_WAVE at once, and records every one sent', async () => {
  const ids = [];
  for (let i = 0; i < 25; i++) ids.push((await queue(`w${i}@example.com`)).messageId);
  const rows = await claimBatch(h.t.db, 'waves', 25, ['email.transactional']);
  expect(rows).toHaveLength(25);
  let inFlight = 0;
  let most = 0;
  const sender = {
    send: async (m: { id: string }) => {
      most = Math.max(most, ++inFlight);
      await new Promise((r) => setTimeout(r, 5));
      inFlight--;
      return { provider: 'wave-test', providerMessageId: `p-${m.id}` };
    },
  } as unknown as FailoverSender;
  const delivery = new EmailDeliveryService(h.t.db, sender, h.lanes.services.suppressions);
  const outcomes = await delivery.deliverBatch(rows as never);
  expect(outcomes.map((o) => o.status)).toEqual(Array(25).fill('fulfilled'));
  expect(most).toBe(SEND_WAVE);
  expect(await statuses(ids)).toEqual(Array(25).fill(['sent', 1]));
});
