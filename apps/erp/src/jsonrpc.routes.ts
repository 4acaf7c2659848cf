/**
 * `POST /jsonrpc` with Odoo 15's envelopes: success `{jsonrpc, id, result}` (result omitted for None),
 * errors with HTTP 200, code 200 "Odoo Server Error" and data {name, debug, message, arguments, context}.
 * Bodies are never logged: their args carry passwords and API keys.
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { asAppError, charsetJsonParser } from '@platform/http-kit';
import { OdooError } from '@platform/erp-embedded';
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

/**
 * A request /jsonrpc cannot take (malformed or oversized body, unknown charset, a NUL or lone
 * surrogate in a string) is still answered in Odoo's envelope: HTTP 200 with a ValidationError naming
 * the field, or werkzeug's BadRequest, so JSON-RPC clients read it as they read every Odoo error.
 */
function requestError(e: unknown): unknown {
  const err = asAppError(e);
  if (err.code === 'INTERNAL') return e;
  if (err.code === 'VALIDATION_FAILED') {
    const f = err.fieldIssues?.[0];
    return new OdooError('odoo.exceptions.ValidationError', f ? `${f.field}: ${f.message}` : err.message);
  }
  const name = err.code === 'PAYLOAD_TOO_LARGE' ? 'werkzeug.exceptions.RequestEntityTooLarge' : 'werkzeug.exceptions.BadRequest';
  return new OdooError(name, err.message);
}

export function registerJsonRpcRoutes(app: FastifyInstance, gateway: RpcGateway): void {
  void app.register(async (scope) => {
    // Odoo routes `application/json-rpc` like `application/json`.
    scope.addContentTypeParser('application/json-rpc', { parseAs: 'buffer' }, charsetJsonParser(scope));
    scope.setErrorHandler((e, req, reply) => {
      const body = req.body;
      reply.code(200).send(odooErrorEnvelope(isDict(body) ? (body.id ?? null) : null, requestError(e), req.log));
    });
    routes(scope, gateway);
  });
}

function routes(app: FastifyInstance, gateway: RpcGateway): void {
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
