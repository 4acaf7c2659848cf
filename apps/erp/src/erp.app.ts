/**
 * `buildErpApp` under its former name, for the worker's test harnesses that import it from here:
 * the HTTP app over an embedded ERP, composed by deps.ts (routes in erp.http-app.ts).
 */
export { composeErpApp as buildErpApp, type ErpAppInput as ErpAppDeps } from './deps.js';
