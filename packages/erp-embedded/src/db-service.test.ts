/**
 * Odoo 15's `db` service on the embedded ERP, over JSON-RPC: create_database and drop behind the
 * master password (AccessDenied otherwise, and when none is configured), and the narrow
 * create_service_api_key that gives a service account (never the administrator) an RPC key.
 */
import { createOdooErp, createOdooRpcClient } from '@platform/erp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startTestErp, type TestErp } from './testing/index.js';

const MASTER = 'the-master-password-0123';
let server: TestErp;
let closed: TestErp;
const rpc = (s: TestErp = server) => createOdooRpcClient({ url: s.url, timeoutMs: 30_000 });

beforeAll(async () => {
  server = await startTestErp({ masterPassword: MASTER });
  closed = await startTestErp({ db: server.db, dbName: 'other' });
}, 120_000);
afterAll(async () => {
  await closed?.stop();
  await server?.close();
});

describe('the db service', { timeout: 60_000 }, () => {
  it('creates a database with its administrator when given the master password', async () => {
    expect(
      await rpc().call('db', 'create_database', [MASTER, 'shop_a', false, 'en_US', 'admin-secret-1', 'admin']),
    ).toBe(true);
    expect(await rpc().call('db', 'list', [])).toContain('shop_a');
    const admin = createOdooErp({ url: server.url, db: 'shop_a', login: 'admin', secret: 'admin-secret-1' });
    expect(await admin.authenticate()).toBe(2);
  });

  it('refuses a wrong master password, and every master call of an ERP without one', async () => {
    await expect(rpc().call('db', 'create_database', ['wrong', 'shop_x', false])).rejects.toMatchObject({
      code: 'ERP_AUTH_FAILED',
    });
    await expect(rpc(closed).call('db', 'drop', ['', 'shop_a'])).rejects.toMatchObject({ code: 'ERP_AUTH_FAILED' });
    expect(await rpc().call('db', 'list', [])).not.toContain('shop_x');
  });

  it('gives a service account an API key, but never the administrator', async () => {
    const admin = createOdooErp({ url: server.url, db: 'shop_a', login: 'admin', secret: 'admin-secret-1' });
    await admin.create('res.users', { name: 'Service', login: 'svc' });
    const key = (await rpc().call('db', 'create_service_api_key', [MASTER, 'shop_a', 'svc', 'platform'])) as string;
    expect(key).toMatch(/^[0-9a-f]{40}$/);
    expect(
      await createOdooErp({ url: server.url, db: 'shop_a', login: 'svc', secret: key }).authenticate(),
    ).toBeGreaterThan(2);
    await expect(rpc().call('db', 'create_service_api_key', [MASTER, 'shop_a', 'admin', 'x'])).rejects.toMatchObject({
      code: 'ERP_REJECTED',
    });
  });

  it('drops a database, and answers false for one that does not exist', async () => {
    expect(await rpc().call('db', 'drop', [MASTER, 'shop_a'])).toBe(true);
    expect(await rpc().call('db', 'drop', [MASTER, 'shop_a'])).toBe(false);
    expect(await rpc().call('db', 'list', [])).not.toContain('shop_a');
  });
});
