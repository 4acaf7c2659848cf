/**
 * Unknown routes on the ERP host answer as Odoo 15 does, not with Fastify's default JSON: a JSON-RPC
 * request (application/json) gets a JSON-RPC error with code 404 "404: Not Found" (HTTP 404), any
 * other request werkzeug's 404 page. The REST API keeps its own problem+json 404 under /restapi.
 */
import { OdooError } from '@platform/erp-embedded';
import type { FastifyInstance } from 'fastify';

import { odooErrorEnvelope } from '../../jsonrpc.routes.js';

const DESCRIPTION =
  'The requested URL was not found on the server. If you entered the URL manually please check your spelling and try again.';
export const NOT_FOUND_HTML =
  '<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 3.2 Final//EN">\n<title>404 Not Found</title>\n<h1>Not Found</h1>\n' +
  `<p>${DESCRIPTION}</p>\n`;

const isJsonRequest = (contentType: string | undefined) => /^application\/(json|json-rpc)\b/i.test(contentType ?? '');

export function registerOdooNotFound(app: FastifyInstance): void {
  app.setNotFoundHandler((req, reply) => {
    if (req.method === 'POST' && isJsonRequest(req.headers['content-type'])) {
      const body = req.body as { id?: unknown } | null | undefined;
      const id = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body.id ?? null) : null;
      return reply
        .code(404)
        .send(odooErrorEnvelope(id, new OdooError('werkzeug.exceptions.NotFound', `404 Not Found: ${DESCRIPTION}`)));
    }
    return reply.code(404).type('text/html; charset=utf-8').send(NOT_FOUND_HTML);
  });
}
