import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type ErpTest, odoo, startErpTest } from '../../testing/scratch-erp.js';

let T: ErpTest;
const builtin = (name: string, message: string) => ({
  odooName: `builtins.${name}`,
  message: expect.stringContaining(message),
});
const messages = (model: string, id: number) =>
  T.x<Record<string, unknown>[]>(
    'mail.message',
    'search_read',
    [
      [
        ['model', '=', model],
        ['res_id', '=', id],
      ],
    ],
    {
      fields: ['model', 'res_id', 'body', 'message_type', 'subtype_id', 'author_id', 'date', 'subject', 'record_name'],
    },
  );

beforeAll(async () => {
  T = await startErpTest('mail');
});
afterAll(async () => T?.close());

describe('the chatter (message_post)', () => {
  it('posts on a partner: Odoo 15 fields, a note by default, the caller as author, the new message id returned', async () => {
    const partner = await T.x<number>('res.partner', 'create', [{ name: 'Pat Known' }]);
    const id = await T.x<number>('res.partner', 'message_post', [[partner]], { body: '<p>Can we move to Friday?</p>' });
    expect(typeof id).toBe('number');
    const [admin] = await T.x<Record<string, unknown>[]>('res.users', 'search_read', [[['login', '=', 'admin']]], {
      fields: ['partner_id'],
    });
    const [m, ...more] = await messages('res.partner', partner);
    expect(more).toHaveLength(0);
    expect(m).toMatchObject({
      id,
      model: 'res.partner',
      res_id: partner,
      body: '<p>Can we move to Friday?</p>',
      message_type: 'notification',
      subtype_id: [expect.any(Number), 'Note'],
      author_id: admin!.partner_id,
      record_name: 'Pat Known',
    });
    expect(m!.date).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it('posts a comment with an author on a lead and on a ticket; the subtypes exist once', async () => {
    const author = await T.x<number>('res.partner', 'create', [{ name: 'Texting Customer' }]);
    const lead = await T.x<number>('crm.lead', 'create', [{ name: 'SMS from +17205550999' }]);
    const team = (await T.x<number[]>('helpdesk.team', 'search', [[]], { limit: 1 }))[0] ?? false;
    const ticket = await T.x<number>('helpdesk.ticket', 'create', [{ name: 'Stuck blind', team_id: team }]);
    await T.x('crm.lead', 'message_post', [[lead]], {
      body: 'Quote please',
      message_type: 'comment',
      subtype_xmlid: 'mail.mt_comment',
      author_id: author,
    });
    await T.x('crm.lead', 'message_post', [[lead]], {
      body: 'Second text',
      message_type: 'comment',
      author_id: author,
    });
    await T.x('helpdesk.ticket', 'message_post', [[ticket]], { body: 'Still stuck', message_type: 'comment' });
    const onLead = await messages('crm.lead', lead);
    expect(onLead.map((m) => m.body)).toEqual(['Second text', 'Quote please']); // newest first (Odoo's order)
    expect(onLead[0]).toMatchObject({
      message_type: 'comment',
      subtype_id: [expect.any(Number), 'Discussions'],
      author_id: [author, 'Texting Customer'],
    });
    expect(await messages('helpdesk.ticket', ticket)).toMatchObject([
      { body: 'Still stuck', record_name: 'Stuck blind' },
    ]);
    expect(await T.x('mail.message.subtype', 'search_count', [[['name', '=', 'Discussions']]])).toBe(1);
    expect(await T.ref('mail.mt_comment')).toBe((onLead[0]!.subtype_id as [number])[0]);
  });

  it('refuses several records, a missing record, an unknown message type and a model without a chatter', async () => {
    const a = await T.x<number>('res.partner', 'create', [{ name: 'A' }]);
    const b = await T.x<number>('res.partner', 'create', [{ name: 'B' }]);
    await expect(T.x('res.partner', 'message_post', [[a, b]], { body: 'x' })).rejects.toMatchObject(
      builtin('ValueError', 'Expected singleton'),
    );
    await expect(T.x('res.partner', 'message_post', [[999_999]], { body: 'x' })).rejects.toMatchObject(
      odoo('MissingError'),
    );
    await expect(T.x('res.partner', 'message_post', [[a]], { body: 'x', message_type: 'fax' })).rejects.toMatchObject(
      builtin('ValueError', 'message_type'),
    );
    await expect(T.x('product.product', 'message_post', [[1]], { body: 'x' })).rejects.toMatchObject(
      builtin('AttributeError', 'message_post'),
    );
    expect(await messages('res.partner', a)).toEqual([]);
  });
});
