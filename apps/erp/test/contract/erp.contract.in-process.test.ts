/**
 * The in-process `Erp` adapter passes the same ERP contract as the JSON-RPC adapter, so the REST API
 * (which uses it inside the ERP host) behaves the same in front of the embedded ERP and of Odoo.
 */
import { createTestDb } from '@platform/db';
import { defineErpContract } from '@platform/erp/contract/erp.contract.js';
import { EmbeddedErp } from '@platform/erp-embedded';
import { createEmbeddedErpAdapter } from '@platform/erp-embedded/embedded-erp.adapter.js';

defineErpContract('embedded ERP in process', async () => {
  const t = await createTestDb();
  const embedded = new EmbeddedErp(t.db);
  await embedded.createDatabase('contract', { adminPassword: 'pw' });
  const { key } = await embedded.createApiKey('contract', 'admin', 'contract');
  const cfg = { db: 'contract', login: 'admin' };
  return {
    erp: createEmbeddedErpAdapter(embedded, { ...cfg, secret: key }),
    erpWithWrongSecret: createEmbeddedErpAdapter(embedded, { ...cfg, secret: '0'.repeat(40) }),
    teardown: () => t.drop(),
  };
});
