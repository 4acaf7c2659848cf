/**
 * `POST /jsonrpc` with Odoo 15's envelopes: success `{jsonrpc, id, result}` (result omitted for None),
 * errors with HTTP 200, code 200 "Odoo Server Error" and data {name, debug, message, arguments, context}.
 * Bodies are never logged: their args carry passwords and API keys.
 */
import { OdooError } from '@platform/erp-embedded';
import { jsonRpcError, jsonRpcResult } from '@platform/erp-embedded/rpc-envelope.js';
import { asAppError, charsetJsonParser } from '@platform/http-kit';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';

import type { RpcGateway } from './features/rpc/rpc-gateway.js';

const isDict = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Odoo's error envelope (rpc-envelope.ts, shared with the test host); unexpected errors are logged here. */
export function odooErrorEnvelope(id: unknown, e: unknown, log?: FastifyBaseLogger) {
  if (!(e instanceof OdooError)) log?.error({ err: e }, 'unexpected error in /jsonrpc');
  return jsonRpcError(id, e);
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
  const name =
    err.code === 'PAYLOAD_TOO_LARGE' ? 'werkzeug.exceptions.RequestEntityTooLarge' : 'werkzeug.exceptions.BadRequest';
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
      const result = await gateway.dispatch({
        protocol: 'jsonrpc',
        service,
        method,
        args: Array.isArray(args) ? args : [],
        context,
        clientIp: req.ip,
      });
      return jsonRpcResult(id, result);
    } catch (e) {
      return odooErrorEnvelope(id, e, req.log);
    }
  });
}
