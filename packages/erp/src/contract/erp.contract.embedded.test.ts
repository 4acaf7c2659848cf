/** Runs the ERP contract against the embedded ERP over JSON-RPC (contract/embedded-server.ts). */
import { describe, it } from 'vitest';
import { embeddedServerExists, startEmbeddedErp } from './embedded-server.js';
import { defineErpContract } from './erp.contract.js';

if (!embeddedServerExists()) {
  describe('ERP contract: embedded ERP', () => {
    it('needs apps/erp/src/erp.server.ts (startErp), which does not exist yet', () => {
      throw new Error('apps/erp/src/erp.server.ts is missing: the embedded ERP cannot be started');
    });
  });
} else {
  defineErpContract('embedded ERP over JSON-RPC', () => startEmbeddedErp('contract'));
}
