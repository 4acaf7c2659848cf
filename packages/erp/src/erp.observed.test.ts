/** The metrics hook of the Erp port, against recorded Odoo 15 answers served over HTTP. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { loadOdooFixtures, type OdooFixtureServer, startOdooFixtureServer } from './contract/odoo-fixture.server.js';
import type { ErpCallEvent } from './erp.observed.js';
import { createOdooErp } from './odoo/odoo-erp.adapter.js';

const KEY = '3f1c0e5b8a9d47e2b6c1f0a4d8e7b2c95a1f3e6d';
let server: OdooFixtureServer;
beforeAll(async () => void (server = await startOdooFixtureServer((await loadOdooFixtures()).values())));
afterAll(() => server.close());

const erpWith = (secret: string, onCall: (e: ErpCallEvent) => void) =>
  createOdooErp({ url: server.url, db: 'odoo15', login: 'api-bot@example.com', secret, onCall });

describe('ERP call hook', () => {
  it('tells each finished call: operation, model, duration, and the error code of a failure', async () => {
    const seen: ErpCallEvent[] = [];
    const erp = erpWith(KEY, (e) => seen.push(e));
    expect(await erp.searchCount('res.partner', [['is_company', '=', true]])).toBeTypeOf('number');
    // Recorded: Odoo 15's UserError for a model that does not exist (a refusal, not an outage).
    await expect(erp.search('no.such.model', [])).rejects.toMatchObject({ code: 'ERP_REJECTED' });
    expect(seen[0]).toMatchObject({ operation: 'searchCount', model: 'res.partner' });
    expect(seen[0]!.errorCode).toBeUndefined();
    expect(seen[0]!.seconds).toBeGreaterThan(0);
    expect(seen[1]).toMatchObject({ operation: 'search', model: 'no.such.model', errorCode: 'ERP_REJECTED' });
    // Never the arguments: the secret travels in them.
    expect(JSON.stringify(seen)).not.toContain(KEY);
  });

  it("counts a refused login as a failure, and an observer's own crash never fails the call", async () => {
    const seen: ErpCallEvent[] = [];
    await expect(erpWith('0'.repeat(40), (e) => seen.push(e)).authenticate()).rejects.toMatchObject({
      code: 'ERP_AUTH_FAILED',
    });
    expect(seen).toEqual([expect.objectContaining({ operation: 'authenticate', errorCode: 'ERP_AUTH_FAILED' })]);
    const throwing = erpWith(KEY, () => {
      throw new Error('observer bug');
    });
    expect((await throwing.version()).serverSerie).toBe('15.0');
  });
});
