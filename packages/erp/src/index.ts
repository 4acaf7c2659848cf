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
} from './odoo/odoo.client.js';
export { observeErp, type ErpCallEvent, type ErpCallObserver } from './erp.observed.js';
export { searchKwargs, withContext } from './erp.kwargs.js';
export { type InvoicePayment, registerInvoicePayment } from './invoice-payments.js';
