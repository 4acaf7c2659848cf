/** REST list domains Odoo's validation refuses answer 422 with a problem body, never a 500; hierarchy operators work. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { apiKey, type RestHarness, startRestHarness } from '../../../test/support/restapi-harness.js';

let h: RestHarness;
let key: string;
beforeAll(async () => {
  h = await startRestHarness();
  ({ key } = await apiKey(h, 'read:res.partner write:res.partner'));
});
afterAll(async () => h?.close());

const list = (domain: unknown) =>
  h.app.inject({
    method: 'GET',
    url: `/restapi/1.0/object/res.partner?domain=${encodeURIComponent(JSON.stringify(domain))}&fields=name`,
    headers: { 'x-api-key': key },
  });

describe('REST domains', () => {
  it.each([
    [[['name', 'child_of', 'x']], 'child_of'],
    [[['name', 'parent_of', 'x']], 'parent_of'],
    [[['id', '=', 1e308]], 'integer out of range'],
  ])('%j answers 422 naming the rule', async (domain, rule) => {
    const res = await list(domain);
    expect(res.statusCode).toBe(422);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(JSON.stringify(res.json())).toContain(rule);
  });

  it('child_of on parent_id lists a company and its contacts', async () => {
    const create = async (values: Record<string, unknown>) =>
      (
        await h.app.inject({
          method: 'POST',
          url: '/restapi/1.0/object/res.partner',
          headers: { 'x-api-key': key },
          payload: values,
        })
      ).json().id as number;
    const co = await create({ name: 'Hierarchy Co', is_company: true });
    const person = await create({ name: 'Hierarchy Person', parent_id: co });
    const res = await list([['parent_id', 'child_of', co]]);
    expect(res.statusCode).toBe(200);
    expect(
      res
        .json()
        .records.map((r: { id: number }) => r.id)
        .sort(),
    ).toEqual([co, person].sort());
  });
});
