/** Runs the ERP contract against the embedded ERP over JSON-RPC (embedded-server.ts). */
import { defineErpContract } from '@platform/erp/contract/erp.contract.js';

import { startEmbeddedErp } from './embedded-server.js';

defineErpContract('embedded ERP over JSON-RPC', () => startEmbeddedErp('contract'));
