/**
 * The REST layer calls the ERP as the service account with `allowed_company_ids` = the acting user's
 * companies, so the ERP's company record rules apply to what a key sees: another company's record is
 * a 404 (its id cannot be probed).
 */
import { schemaOf } from '@platform/erp-embedded';
import { createRecord } from '@platform/erp-embedded/orm/write.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { apiKey, ERP_DB, type RestHarness, startRestHarness } from '../../../test/support/restapi-harness.js';

let h: RestHarness;
let bob: string;
let admin: string;
const ids: Record<'a' | 'b' | 'shared', number> = { a: 0, b: 0, shared: 0 };

beforeAll(async () => {
  h = await startRestHarness();

  // Fixture: the second company is made by the superuser (as Odoo's installer would); the rest goes
  // through the Erp port as the service account.
  const su = h.embedded.env(h.t.db, schemaOf(ERP_DB), 1, {});
  const b = await createRecord(su, h.embedded.registry.get('res.company'), { name: 'Branch B' });
  // The service account must belong to every company it acts in (Odoo checks allowed_company_ids).
  await h.erp.write('res.users', [2], { company_ids: [[4, b, 0]] });
  await h.erp.create('res.users', { name: 'Bob', login: 'bob', company_id: b, company_ids: [[6, 0, [b]]] });
  ids.a = await h.erp.create('res.partner', { name: 'RuleTest A', company_id: 1 });
  ids.b = await h.erp.create('res.partner', { name: 'RuleTest B', company_id: b });
  ids.shared = await h.erp.create('res.partner', { name: 'RuleTest shared', company_id: false });
  ({ key: bob } = await apiKey(h, 'read:res.partner write:res.partner', 'bob'));
  ({ key: admin } = await apiKey(h, 'read:res.partner', 'admin'));
});
afterAll(async () => h?.close());

const rest = (key: string, method: 'GET' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  h.app.inject({
    method,
    url: `/restapi/1.0/object/res.partner${url}`,
    headers: { 'x-api-key': key },
    ...(payload ? { payload } : {}),
  });
const names = async (key: string) => {
  const q = encodeURIComponent(JSON.stringify([['name', '=like', 'RuleTest%']]));
  return (
    (await rest(key, 'GET', `?domain=${q}&fields=name&order=name`)).json() as { records: { name: string }[] }
  ).records.map((r) => r.name);
};

describe('company record rules through the REST API', () => {
  it("a key acting for a user of company B sees B's and shared records only", async () => {
    expect(await names(bob)).toEqual(['RuleTest B', 'RuleTest shared']);
    expect(await names(admin)).toEqual(['RuleTest A', 'RuleTest B', 'RuleTest shared']);
  });

  it("another company's record is 404 for read, write and delete", async () => {
    for (const [method, payload] of [['GET'], ['PUT', { name: 'taken over' }], ['DELETE']] as const) {
      const res = await rest(bob, method, `/${ids.a}`, payload);
      expect(res.statusCode, method).toBe(404);
      expect(res.json()).toMatchObject({ code: 'RECORD_NOT_FOUND' });
    }
    expect((await rest(bob, 'GET', `/${ids.b}`)).statusCode).toBe(200);
    expect((await rest(admin, 'GET', `/${ids.a}?fields=name`)).json()).toEqual({ id: ids.a, name: 'RuleTest A' });
  });
});
