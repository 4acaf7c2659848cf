export type {
  Erp,
  ErpRecord,
  ErpValues,
  ErpVersion,
  Domain,
  DomainItem,
  DomainLeaf,
  SearchOptions,
  SearchReadOptions,
} from './erp.port.js';
export { createOdooErp, type OdooErpConfig } from './odoo/odoo-erp.adapter.js';
export {
  createOdooRpcClient,
  DEFAULT_TIMEOUT_MS,
  type OdooRpcClient,
  type OdooRpcOptions,
  type RpcLabel,
  type RpcCallEvent,
} from './odoo/odoo.client.js';
