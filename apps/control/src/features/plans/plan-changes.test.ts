/** The billing port hears each committed change of plan once, and nothing of a refused one. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type ControlKit, startControlKit } from '../../testing/control-test-kit.js';
import type { PlanChange } from './billing.port.js';

const heard: PlanChange[] = [];
let kit: ControlKit;
beforeAll(async () => {
  kit = await startControlKit({}, { billing: { planChanged: async (c) => void heard.push(c) } });
});
afterAll(async () => kit?.close());

describe('the billing port', () => {
  it('is told of an upgrade once it is committed, and of no refused downgrade', async () => {
    const t = await kit.tenant('billing-heard');
    const put = (plan: string) =>
      kit.app.inject({
        method: 'PUT',
        url: `/api/tenants/${t.id}/plan`,
        headers: { authorization: `Bearer ${t.token}` },
        payload: { plan },
      });
    expect((await put('professional')).statusCode).toBe(200);
    expect(heard).toMatchObject([{ tenantId: t.id, from: 'free', to: 'professional' }]);
    for (let i = 0; i < 3; i++) await kit.member(t.id, 'office');
    expect((await put('free')).statusCode).toBe(409);
    expect((await put('professional')).statusCode).toBe(200); // no change: nothing to bill
    expect(heard).toHaveLength(1);
  });
});
