/**
 * A REST API key made on the owner's console (control plane) works on the tenant's ERP host at once,
 * as one made with `npm run restapi -- key create` does; another tenant's key does not reach this
 * tenant; a key revoked on the console is refused at the ERP host from the next request. Both hosts
 * run on one platform database, as in production.
 */
import { type ControlKit, startControlKit } from '@platform/app-control/testing/control-test-kit.js';
import { composeErpApp } from '@platform/app-erp/deps.js';
import { composeRestApi } from '@platform/app-erp/restapi.compose.js';
import { EmbeddedErp } from '@platform/erp-embedded';
import { createEmbeddedErpAdapter } from '@platform/erp-embedded/embedded-erp.adapter.js';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

type T = Awaited<ReturnType<ControlKit['tenant']>>;
let kit: ControlKit;
let erpHost: FastifyInstance;
let a: T;
let b: T;

beforeAll(async () => {
  kit = await startControlKit();
  a = await kit.tenant('rest-a', 'professional');
  b = await kit.tenant('rest-b', 'professional');
  const embedded = new EmbeddedErp(kit.t.db);
  await embedded.createDatabase('rest_a', { adminPassword: 'admin-pw' });
  const { key } = await embedded.createApiKey('rest_a', 'admin', 'platform integration');
  const erp = createEmbeddedErpAdapter(embedded, { db: 'rest_a', login: 'admin', secret: key });
  await erp.create('res.partner', { name: 'Ada Customer' });
  // The ERP host of tenant A: its REST credentials are A's.
  const restapi = composeRestApi({ db: kit.t.db, tenantId: a.id, erp, verifyLogin: async () => false });
  erpHost = composeErpApp({ erp: embedded, restapi });
}, 60_000);
afterAll(async () => {
  await erpHost?.close();
  await kit?.close();
});

const consoleKey = async (t: T) => {
  const r = await kit.app.inject({
    method: 'POST',
    url: `/api/tenants/${t.id}/api-keys`,
    headers: { authorization: `Bearer ${t.token}` },
    payload: { description: 'Integration' },
  });
  expect(r.statusCode).toBe(201);
  return r.json() as { id: number; key: string };
};
const partners = (key: string) =>
  erpHost.inject({ url: '/restapi/1.0/object/res.partner', headers: { 'x-api-key': key } });

describe('a key made on the console, at the ERP host', () => {
  it("reads the tenant's contacts; another tenant's key is refused; a revoked key is refused at once", async () => {
    const mine = await consoleKey(a);
    const ok = await partners(mine.key);
    expect(ok.statusCode).toBe(200);
    expect(JSON.stringify(ok.json())).toContain('Ada Customer');

    const theirs = await consoleKey(b);
    const refused = await partners(theirs.key);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ code: 'API_UNAUTHENTICATED' });

    const revoke = await kit.app.inject({
      method: 'DELETE',
      url: `/api/tenants/${a.id}/api-keys/${mine.id}`,
      headers: { authorization: `Bearer ${a.token}` },
    });
    expect(revoke.statusCode).toBe(204);
    expect((await partners(mine.key)).statusCode).toBe(401);
  });
});
