import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { EmbeddedErp } from '../embedded-erp.js';
import { type ErpTest, startErpTest } from '../testing/scratch-erp.js';

let T: ErpTest;
let location: number;
let customer: number;
const RELATED = ['street', 'street2', 'zip', 'city', 'phone', 'mobile', 'stage_name'];

beforeAll(async () => {
  T = await startErpTest('fsm_related');
  customer = await T.x('res.partner', 'create', [
    { name: 'Rivera Home', phone: '+1 512 555 0100', mobile: '+1 512 555 0199' },
  ]);
  // As the platform makes a job's location: under its customer's own name and phones.
  location = await T.x('fsm.location', 'create', [
    {
      name: 'Rivera Home',
      partner_id: customer,
      street: '3315 Barton Hills Dr',
      street2: 'Unit 2',
      city: 'Austin',
      zip: '78704',
      phone: '+1 512 555 0100',
      mobile: '+1 512 555 0199',
    },
  ]);
});
afterAll(async () => T?.close());

describe("fsm.order's OCA related fields", () => {
  it("answers the location's address and phones and the stage's name in one search_read", async () => {
    const id = await T.x<number>('fsm.order', 'create', [{ location_id: location }]);
    const [row] = await T.x<Record<string, unknown>[]>('fsm.order', 'search_read', [[['id', '=', id]]], {
      fields: ['location_id', ...RELATED],
    });
    expect(row).toEqual({
      id,
      location_id: [location, 'Rivera Home'],
      street: '3315 Barton Hills Dr',
      street2: 'Unit 2',
      zip: '78704',
      city: 'Austin',
      phone: '+1 512 555 0100',
      mobile: '+1 512 555 0199',
      stage_name: 'New',
    });
  });

  it("follow the location's edit and the order's stage move", async () => {
    const id = await T.x<number>('fsm.order', 'create', [{ location_id: location }]);
    await T.x('fsm.location', 'write', [[location], { street: '12 Oak St', phone: false }]);
    await T.x('fsm.order', 'write', [[id], { stage_id: await T.ref('fieldservice.fsm_stage_scheduled') }]);
    const [row] = await T.x<Record<string, unknown>[]>('fsm.order', 'read', [[id], ['street', 'phone', 'stage_name']]);
    expect(row).toEqual({ id, street: '12 Oak St', phone: false, stage_name: 'Scheduled' });
    await T.x('fsm.location', 'write', [[location], { street: '3315 Barton Hills Dr', phone: '+1 512 555 0100' }]);
  });

  it("a location takes its partner's new name and phones, as OCA's delegate; its orders' write_date stays", async () => {
    const id = await T.x<number>('fsm.order', 'create', [{ location_id: location }]);
    await T.age('fsm.order', [id]);
    await T.x('res.partner', 'write', [[customer], { name: 'Rivera Family', phone: '+1 512 555 0111' }]);
    try {
      const [row] = await T.x<Record<string, unknown>[]>('fsm.order', 'read', [
        [id],
        ['location_id', 'phone', 'mobile', 'write_date'],
      ]);
      expect(row).toEqual({
        id,
        location_id: [location, 'Rivera Family'],
        phone: '+1 512 555 0111',
        mobile: '+1 512 555 0199',
        write_date: '2000-01-01 00:00:00',
      });
    } finally {
      await T.x('res.partner', 'write', [[customer], { name: 'Rivera Home', phone: '+1 512 555 0100' }]);
    }
  });

  it('an address-named location without phones takes all three when its partner is renamed', async () => {
    const p = await T.x<number>('res.partner', 'create', [{ name: 'Jo Park', phone: '+1 512 555 0142' }]);
    const l = await T.x<number>('fsm.location', 'create', [{ name: '9 Elm St, Austin', partner_id: p }]);
    await T.x('res.partner', 'write', [[p], { name: 'Jo Parker' }]);
    expect(await T.x('fsm.location', 'read', [[l], ['name', 'phone', 'mobile']])).toEqual([
      { id: l, name: 'Jo Parker', phone: '+1 512 555 0142', mobile: false },
    ]);
  });

  it('are filled for the orders of a database made before them, whose write_date stays', async () => {
    const id = await T.x<number>('fsm.order', 'create', [{ location_id: location }]);
    await T.age('fsm.order', [id]);
    const schema = `"erp_${T.db}".fsm_order`;
    await T.t.db.query(`ALTER TABLE ${schema} DROP COLUMN street, DROP COLUMN city, DROP COLUMN stage_name`);
    // Another process starting on the same database brings its tables up to the models.
    const later = new EmbeddedErp(T.t.db);
    const [row] = (await later.executeKw(T.db, 2, 'pw', 'fsm.order', 'read', [
      [id],
      ['street', 'city', 'zip', 'stage_name', 'write_date'],
    ])) as Record<string, unknown>[];
    expect(row).toEqual({
      id,
      street: '3315 Barton Hills Dr',
      city: 'Austin',
      zip: '78704',
      stage_name: 'New',
      write_date: '2000-01-01 00:00:00',
    });
  });
});
