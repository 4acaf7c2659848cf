/** The wire contract against Odoo 15's recorded answers: the cases state what Odoo does. */
import { startOdooFixtureServer } from '@platform/erp/contract/odoo-fixture.server.js';
import { defineWireContract, loadWireFixtures } from '@platform/erp/contract/wire.contract.js';
import { expect } from 'vitest';

defineWireContract('recorded Odoo 15', async () => {
  const server = await startOdooFixtureServer((await loadWireFixtures()).values());
  return {
    url: server.url,
    db: 'odoo15',
    login: 'api-bot@example.com',
    key: '3f1c0e5b8a9d47e2b6c1f0a4d8e7b2c95a1f3e6d',
    password: 'bot-password-15',
    uid: 2,
    ids: { lead: 41, tag: 3, po: 7 },
    async teardown() {
      expect(server.unmatched, 'every request has a recorded answer').toEqual([]);
      await server.close();
    },
  };
});
