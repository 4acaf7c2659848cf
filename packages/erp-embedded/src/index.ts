/** Public API of the embedded ERP (Odoo 15-compatible ORM and RPC services). */
export { EmbeddedErp, schemaOf, type EmbeddedErpOptions } from './embedded-erp.js';
export { dispatchRpc, SERVER_VERSION } from './rpc-dispatch.js';
export { OdooError, valueError, userError, validationError, accessError, accessDenied } from './errors.js';
export { Registry, type ModelDef, type ModelSpec } from './registry.js';
export { f, type FieldDef, type FieldType } from './fields.js';
export { defaultRegistry } from './models/index.js';
export { seedDemo, DEMO_MODULE, type DemoSummary } from './seed/demo.js';
export type { ApiKeyInfo } from './auth/apikeys.js';
export { API_KEY_RE } from './auth/apikeys.js';
