/**
 * Odoo 15's JSON-RPC envelopes: success `{jsonrpc, id, result}` (result omitted for None), errors
 * with HTTP 200, code 200 "Odoo Server Error" (100 for an expired session, 404 for a missing route)
 * and data {name, debug, message, arguments, context}. A non-OdooError is answered as Odoo answers
 * an unexpected exception, with no detail: the caller logs it.
 */
import { OdooError } from './errors.js';

/** Odoo 15's JsonRequest codes other than 200: an expired session, a route that does not exist. */
const ENVELOPE_CODES: Record<string, [number, string]> = {
  'odoo.http.SessionExpiredException': [100, 'Odoo Session Expired'],
  'werkzeug.exceptions.NotFound': [404, '404: Not Found'],
};

export function jsonRpcResult(id: unknown, result: unknown) {
  return result === undefined || result === null ? { jsonrpc: '2.0', id } : { jsonrpc: '2.0', id, result };
}

export function jsonRpcError(id: unknown, e: unknown) {
  const [name, message] =
    e instanceof OdooError ? [e.odooName, e.message] : ['builtins.Exception', 'Internal Server Error'];
  const debug = `Traceback (most recent call last):\n  File "embedded-erp", in dispatch_rpc\n${name}: ${message}\n`;
  const [code, title] = ENVELOPE_CODES[name] ?? [200, 'Odoo Server Error'];
  return {
    jsonrpc: '2.0',
    id,
    error: {
      code,
      message: title,
      data: { name, debug, message, arguments: code === 404 ? [] : [message], context: {} },
    },
  };
}
