import {
  type ErpEventPayload,
  TOPIC_FSM_STAGE_CHANGED,
  TOPIC_INVOICE_POSTED,
  TOPIC_PO_CONFIRMED,
  TOPIC_SALE_CONFIRMED,
} from '@platform/contracts';
import { describe, expect, it } from 'vitest';

import { chatMessage, FLAG_OF } from './chat-message.js';

const event = (
  model: string,
  record: Record<string, unknown>,
  extra: Partial<ErpEventPayload> = {},
): ErpEventPayload => ({
  erpDb: 'platform',
  model,
  recordId: 7,
  field: 'state',
  old: 'draft',
  new: 'sale',
  oldLabel: 'draft',
  newLabel: 'sale',
  writeDate: '2026-11-22 10:00:05',
  record,
  ...extra,
});

describe('team-chat messages', () => {
  it("an FSM stage change names the job, both stages, the technician and the location, in the record's thread", () => {
    const m = chatMessage(
      TOPIC_FSM_STAGE_CHANGED,
      event(
        'fsm.order',
        { name: 'FSO00012', person_id: [3, 'Sam Tech'], location_id: [9, '12 Elm St'] },
        { field: 'stage_id', old: '2', new: '3', oldLabel: 'Scheduled', newLabel: 'In Progress' },
      ),
    );
    expect(m.text).toBe('*Job FSO00012* moved from *Scheduled* to *In Progress*');
    expect(m.threadKey).toBe('fsm.order-7');
    expect(JSON.stringify(m.cardsV2)).toContain('Sam Tech');
    expect(JSON.stringify(m.cardsV2)).toContain('12 Elm St');
  });

  it('a confirmed sale, a posted invoice and a confirmed PO carry the partner and total', () => {
    const rec = { name: 'S00042', partner_id: [5, 'Jane Roe'], amount_total: 1250, currency_id: [1, 'USD'] };
    expect(chatMessage(TOPIC_SALE_CONFIRMED, event('sale.order', rec)).text).toBe(
      '*Sales order S00042 confirmed* for Jane Roe (USD 1,250.00)',
    );
    expect(chatMessage(TOPIC_INVOICE_POSTED, event('account.move', { ...rec, name: 'INV/2026/00007' })).text).toBe(
      '*Invoice INV/2026/00007 posted* for Jane Roe (USD 1,250.00)',
    );
    expect(
      chatMessage(
        TOPIC_PO_CONFIRMED,
        event('purchase.order', { ...rec, name: 'P00003', partner_id: [8, 'Shade Supply Co'] }),
      ).text,
    ).toBe('*Purchase order P00003 confirmed* with Shade Supply Co (USD 1,250.00)');
  });

  it('record values cannot inject chat formatting', () => {
    const m = chatMessage(
      TOPIC_SALE_CONFIRMED,
      event('sale.order', { name: 'S1', partner_id: [5, '*Boss* _urgent_'] }),
    );
    expect(m.text).toBe('*Sales order S1 confirmed* for Boss urgent');
  });

  it('each event has its own settings flag', () => {
    expect(FLAG_OF).toEqual({
      [TOPIC_FSM_STAGE_CHANGED]: 'enable_fsm',
      [TOPIC_SALE_CONFIRMED]: 'enable_sales',
      [TOPIC_INVOICE_POSTED]: 'enable_invoice',
      [TOPIC_PO_CONFIRMED]: 'enable_po',
    });
  });
});
