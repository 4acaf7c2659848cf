/**
 * Odoo 15's XML-RPC endpoints: `POST /xmlrpc/2/<service>` (integer fault codes) and the legacy
 * `POST /xmlrpc/<service>` (string fault codes), services `common`, `object`, `db`, on the same
 * gateway as `/jsonrpc`. Answers are `text/xml` with HTTP 200, faults included, as Odoo's.
 *
 * The body parser lives in this plugin's own scope: any content type is read as text (Odoo ignores
 * it; clients send text/xml), up to `bodyLimit` bytes; a larger body gets HTTP 413 with a fault.
 * Bodies are never logged: their params carry passwords and API keys.
 */
import { OdooError } from '@platform/erp-embedded';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import type { RpcGateway } from '../rpc/rpc-gateway.js';
import { decodeMethodCall, encodeFault, encodeResponse, XmlRpcDecodeError } from './xmlrpc.codec.js';
import { faultXml } from './xmlrpc.faults.js';

export const XMLRPC_BODY_LIMIT = 10 * 1024 * 1024;
const XML = 'text/xml; charset=utf-8';

export function registerXmlRpcRoutes(
  app: FastifyInstance,
  gateway: RpcGateway,
  opts: { bodyLimit?: number } = {},
): void {
  const bodyLimit = opts.bodyLimit ?? XMLRPC_BODY_LIMIT;
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit }, (_req, body, done) => done(null, body));

    scope.setErrorHandler((err: { statusCode?: number; code?: string }, req, reply) => {
      const tooLarge = err.statusCode === 413;
      if (!tooLarge && (err.statusCode ?? 500) >= 500) req.log.error({ err }, 'XML-RPC request failed');
      const message = tooLarge ? `request body larger than ${bodyLimit} bytes` : 'malformed request';
      reply
        .code(tooLarge ? 413 : 200)
        .type(XML)
        .send(encodeFault(1, `Traceback (most recent call last):\nValueError: ${message}\n`));
    });

    const route = (legacy: boolean) => async (req: FastifyRequest, reply: FastifyReply) => {
      reply.type(XML);
      const { service } = req.params as { service: string };
      try {
        let call;
        try {
          call = await decodeMethodCall(typeof req.body === 'string' ? req.body : '');
        } catch (e) {
          if (e instanceof XmlRpcDecodeError) throw new OdooError('xml.parsers.expat.ExpatError', e.message);
          throw e;
        }
        const result = await gateway.dispatch({
          protocol: 'xmlrpc',
          service,
          method: call.method,
          args: call.params,
          clientIp: req.ip,
        });
        return encodeResponse(result);
      } catch (e) {
        if (!(e instanceof OdooError)) req.log.error({ err: e }, 'unexpected error in XML-RPC');
        return faultXml(e, legacy);
      }
    };
    scope.post('/xmlrpc/2/:service', route(false));
    scope.post('/xmlrpc/:service', route(true));
  });
}
