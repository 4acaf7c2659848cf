/**
 * Test host of the embedded ERP: `POST /jsonrpc` (Odoo 15's external API, as the platform's Odoo
 * adapter calls it) and `GET /web/health` on loopback, over node:http. The ERP host app (apps/erp)
 * serves the same RPC services with XML-RPC, web sessions and the REST API; a package's tests must
 * not import an app, so the ERP their code calls as an outside system is served here.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';

import type { EmbeddedErp } from '../embedded-erp.js';
import { OdooError } from '../errors.js';
import { dispatchRpc } from '../rpc-dispatch.js';
import { jsonRpcError, jsonRpcResult } from '../rpc-envelope.js';

const isDict = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function answer(erp: EmbeddedErp, text: string): Promise<unknown> {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return jsonRpcError(null, new OdooError('werkzeug.exceptions.BadRequest', 'The request body is not valid JSON.'));
  }
  const id = isDict(body) ? (body.id ?? null) : null;
  try {
    if (!isDict(body) || !isDict(body.params)) throw new OdooError('builtins.TypeError', 'params must be an object');
    const { service, method, args } = body.params;
    const context = isDict(body.params.context) ? body.params.context : {};
    return jsonRpcResult(id, await dispatchRpc(erp, service, method, Array.isArray(args) ? args : [], context));
  } catch (e) {
    return jsonRpcError(id, e);
  }
}

/** An HTTP server (not yet listening) serving `erp`'s JSON-RPC. */
export function createJsonRpcHost(erp: EmbeddedErp): Server {
  return createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method === 'GET' && req.url?.startsWith('/web/health')) return send(200, { status: 'pass' });
    if (req.method !== 'POST' || req.url !== '/jsonrpc') {
      return send(404, jsonRpcError(null, new OdooError('werkzeug.exceptions.NotFound', 'Not Found')));
    }
    readBody(req)
      .then((text) => answer(erp, text))
      .then((body) => send(200, body))
      .catch(() => res.destroy());
  });
}
