/**
 * The portal's writes read the Idempotency-Key the portal page sends: a retry under the key replays
 * the first answer (marked `idempotent-replayed`), another body under it is refused, a malformed key
 * is a 400. Each case makes its own quote and link.
 */
import { describe, expect, it } from 'vitest';

import { useCrmSalesKit } from '../../testing/crm-sales-kit.js';
import { png } from '../../testing/png.js';

const kit = useCrmSalesKit();

const window = {
  product_code: 'roller-shade',
  room: 'Study',
  width_in: 30,
  drop_in: 40,
  mount: 'inside',
  colour: 'Ash',
};

async function sentQuote(): Promise<{ token: string; orderId: number }> {
  const q = await kit().call('POST', '/sales/quotes', kit().a.office, {
    customer: { name: 'Kai Retry' },
    lines: [window],
  });
  const sent = await kit().call('POST', `/sales/quotes/${q.body.id}/send`, kit().a.office);
  return { token: sent.body.token, orderId: q.body.sale_order_id };
}

const post = (token: string, action: string, body: unknown, key?: string) =>
  kit().call('POST', `/portal/quotes/${token}/${action}`, undefined, body, {
    'x-tenant-id': kit().a.id,
    ...(key ? { 'idempotency-key': key } : {}),
  });

describe('portal writes under an Idempotency-Key', () => {
  it('a repeated acceptance under its key replays the first answer; another body under the key is refused', async () => {
    const { token, orderId } = await sentQuote();
    const body = { name: 'Kai Retry', signature_png_base64: png() };
    const first = await post(token, 'accept', body, 'accept-key-1');
    const again = await post(token, 'accept', body, 'accept-key-1');
    const other = await post(token, 'accept', { ...body, name: 'Someone Else' }, 'accept-key-1');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ status: 'accepted', state: 'sale', accepted: { name: 'Kai Retry' } });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(other.status).toBe(422);
    expect(other.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect((await kit().a.erp.erp.read('sale.order', [orderId], ['state']))[0]!.state).toBe('sale');
  });

  it('a repeated change request under its key replays 202 without posting again', async () => {
    const { token, orderId } = await sentQuote();
    const note = { note: 'Could the study one be blackout?' };
    expect((await post(token, 'request-changes', note, 'changes-key-1')).status).toBe(202);
    const again = await post(token, 'request-changes', note, 'changes-key-1');
    expect(again.status).toBe(202);
    expect(again.body).toEqual({ status: 'received' });
    const notes = await kit().a.erp.erp.searchRead(
      'mail.message',
      [
        ['model', '=', 'sale.order'],
        ['res_id', '=', orderId],
      ],
      { fields: ['body'] },
    );
    expect(notes.filter((n) => String(n.body).includes('blackout'))).toHaveLength(1);
  });

  it('a malformed key is refused with 400 before anything is done', async () => {
    const { token, orderId } = await sentQuote();
    const r = await post(token, 'accept', { name: 'Kai Retry', signature_png_base64: png() }, 'has space');
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('IDEMPOTENCY_KEY_INVALID');
    expect((await kit().a.erp.erp.read('sale.order', [orderId], ['state']))[0]!.state).toBe('sent');
  });
});
