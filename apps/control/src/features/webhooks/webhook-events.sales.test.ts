/**
 * Quotes queue their outbound webhook events with their commits: quote.sent once per send (a retried
 * send under the same Idempotency-Key is the same send), quote.accepted once per quote however many
 * times the customer accepts.
 */
import { randomUUID } from 'node:crypto';

import { insertEndpoint } from '@platform/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type CrmSalesKit, startCrmSalesKit } from '../../testing/crm-sales-kit.js';
import { png } from '../../testing/png.js';
import { threeWindows } from '../../testing/quote-fixtures.js';

let k: CrmSalesKit;
beforeAll(async () => {
  k = await startCrmSalesKit();
  // Events are queued only for a tenant with an endpoint that takes them (the secret is not used here).
  await k.kit.t.db.transaction((tx) =>
    insertEndpoint(tx, {
      id: randomUUID(),
      tenantId: k.a.id,
      url: 'https://hooks.example.com/in',
      description: null,
      events: ['quote.sent', 'quote.accepted'],
      secretEnc: 'not-used-here',
    }),
  );
}, 120_000);
afterAll(async () => k?.close());

async function events(quoteId: string) {
  const r = await k.kit.t.db.query<{ type: string; data: Record<string, unknown> }>(
    `SELECT payload->>'type' AS type, payload->'data' AS data FROM outbox
      WHERE topic = 'webhook.event' AND payload->'data'->>'quote_id' = $1 ORDER BY id`,
    [quoteId],
  );
  return r.rows;
}

describe('quote events', () => {
  it('queues quote.sent once per send and quote.accepted once per quote', async () => {
    const window = { ...threeWindows.lines[0]!, options: [] };
    const customer = { name: 'Ola Berg', email: 'ola.events@example.com' };
    const q = (await k.call('POST', '/sales/quotes', k.a.office, { customer, lines: [window] })).body;
    const send = () =>
      k.call('POST', `/sales/quotes/${q.id}/send`, k.a.office, undefined, { 'idempotency-key': 'ev-1' });
    const sent = await send();
    expect(sent.status).toBe(200);
    await send();
    expect(await events(q.id)).toEqual([
      { type: 'quote.sent', data: expect.objectContaining({ quote_id: q.id, emailed: true, texted: false }) },
    ]);
    const body = { name: 'Ola Berg', signature_png_base64: png() };
    const accept = () =>
      k.call('POST', `/portal/quotes/${sent.body.token}/accept`, undefined, body, { 'x-tenant-id': k.a.id });
    expect((await accept()).status).toBe(200);
    expect((await accept()).status).toBe(200);
    const accepted = (await events(q.id)).filter((e) => e.type === 'quote.accepted');
    expect(accepted).toEqual([
      { type: 'quote.accepted', data: expect.objectContaining({ quote_id: q.id, accepted_by: 'Ola Berg' }) },
    ]);
  });
});
