/**
 * The one test entry point of the embedded ERP (`@platform/erp-embedded/testing`), for this
 * package's tests and for every app or package whose tests need an ERP: a scratch in-process ERP
 * (scratch-erp.ts), the ERP served over Odoo's JSON-RPC on loopback (served-erp.ts), and a proxy
 * that loses replies (reply-dropping-proxy.ts). Test code only: production code never imports it.
 */
export { startErpTest, odoo, type ErpTest } from './scratch-erp.js';
export {
  startTestErp,
  serveAgain,
  freePort,
  registryWithout,
  gatedProxy,
  waitFor,
  type TestErp,
  type TestErpOptions,
} from './served-erp.js';
export {
  startReplyDroppingProxy,
  odooCall,
  type ReplyDroppingProxy,
  type ProxiedRequest,
  type RequestMatcher,
} from './reply-dropping-proxy.js';
export { invoiceOrder } from './sales-money.js';
