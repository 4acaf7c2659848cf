/**
 * `POST /jsonrpc` with Odoo 15's envelopes: success `{jsonrpc, id, result}` (result omitted for None),
 * errors with HTTP 200, code 200 "Odoo Server Error" and data {name, debug, message, arguments, context}.
 * Bodies are never logged: their args carry passwords and API keys.
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { OdooError } from '@platform/erp/embedded/index.js';
import type { RpcGateway } from './features/rpc/rpc-gateway.js';

const isDict = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Odoo 15's JsonRequest codes other than 200: an expired session, a route that does not exist. */
const ENVELOPE_CODES: Record<string, [number, string]> = {
  'odoo.http.SessionExpiredException': [100, 'Odoo Session Expired'],
  'werkzeug.exceptions.NotFound': [404, '404: Not Found'],
};

export function odooErrorEnvelope(id: unknown, e: unknown, log?: FastifyBaseLogger) {
  let name = 'builtins.Exception';
  let message = 'Internal Server Error';
  if (e instanceof OdooError) {
    name = e.odooName;
    message = e.message;
  } else {
    log?.error({ err: e }, 'unexpected error in /jsonrpc');
  }
  const debug = `Traceback (most recent call last):\n  File "embedded-erp", in dispatch_rpc\n${name}: ${message}\n`;
  const [code, title] = ENVELOPE_CODES[name] ?? [200, 'Odoo Server Error'];
  return {
    jsonrpc: '2.0',
    id,
    error: { code, message: title, data: { name, debug, message, arguments: code === 404 ? [] : [message], context: {} } },
  };
}

export function registerJsonRpcRoutes(app: FastifyInstance, gateway: RpcGateway): void {
  // Odoo routes `application/json-rpc` like `application/json`.
  app.addContentTypeParser('application/json-rpc', { parseAs: 'string' }, (_req, body, done) => {
    try {
      done(null, JSON.parse(body as string));
    } catch (e) {
      done(Object.assign(e as Error, { statusCode: 400 }), undefined);
    }
  });

  app.post('/jsonrpc', async (req) => {
    const body = req.body;
    const id = isDict(body) ? (body.id ?? null) : null;
    try {
      if (!isDict(body) || !isDict(body.params)) throw new OdooError('builtins.TypeError', 'params must be an object');
      const { service, method, args } = body.params;
      const context = isDict(body.params.context) ? body.params.context : {};
      const result = await gateway.dispatch({ protocol: 'jsonrpc', service, method, args: Array.isArray(args) ? args : [], context, clientIp: req.ip });
      return result === undefined || result === null ? { jsonrpc: '2.0', id } : { jsonrpc: '2.0', id, result };
    } catch (e) {
      return odooErrorEnvelope(id, e, req.log);
    }
  });
}
