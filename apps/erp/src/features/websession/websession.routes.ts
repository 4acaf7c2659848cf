/**
 * Odoo 15's web session API (type="json" routes: JSON-RPC envelopes, errors with HTTP 200):
 * /web/session/authenticate|get_session_info|check|destroy, /web/dataset/call_kw[/<path>],
 * /web/dataset/search_read, /web/database/list, /web/webclient/version_info.
 * The session id travels in the `session_id` cookie (or Odoo's `X-Openerp-Session-Id` header or
 * `?session_id=`); `?db=` naming another database than the session's is refused as expired.
 */
import { OdooError, SERVER_VERSION } from '@platform/erp-embedded';
import { parseCookie, stringifySetCookie } from 'cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import { odooErrorEnvelope } from '../../jsonrpc.routes.js';
import type { RpcGateway } from '../rpc/rpc-gateway.js';
import { sessionInfo } from './session-info.js';
import { webSearchRead } from './web-search-read.js';
import type { WebSessions } from './websession.service.js';

type Params = Record<string, unknown>;
const isDict = (v: unknown): v is Params => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Python's TypeError for a missing positional argument of the route's function. */
function required(fn: string, p: Params, names: string[]): void {
  const missing = names.filter((n) => !(n in p));
  if (missing.length) {
    const list = missing.map((n) => `'${n}'`).join(missing.length === 2 ? ' and ' : ', ');
    throw new OdooError(
      'builtins.TypeError',
      `${fn}() missing ${missing.length} required positional argument${missing.length > 1 ? 's' : ''}: ${list}`,
    );
  }
}

function sessionIdOf(req: FastifyRequest): string | undefined {
  const query = req.query as Record<string, unknown>;
  const header = req.headers['x-openerp-session-id'];
  const fromQuery = typeof query.session_id === 'string' ? query.session_id : undefined;
  return (
    fromQuery ?? (typeof header === 'string' ? header : undefined) ?? parseCookie(req.headers.cookie ?? '').session_id
  );
}

const requestedDb = (req: FastifyRequest) => {
  const db = (req.query as Record<string, unknown>).db;
  return typeof db === 'string' ? db : undefined;
};
const baseUrl = (req: FastifyRequest) => `${req.protocol}://${req.host}`;

export function registerWebSessionRoutes(app: FastifyInstance, gateway: RpcGateway, sessions: WebSessions): void {
  const route = (path: string, handler: (p: Params, req: FastifyRequest, reply: FastifyReply) => Promise<unknown>) =>
    app.post(path, async (req, reply) => {
      const body = req.body;
      const id = isDict(body) ? (body.id ?? null) : null;
      try {
        const result = await handler(isDict(body) && isDict(body.params) ? body.params : {}, req, reply);
        return result === undefined || result === null ? { jsonrpc: '2.0', id } : { jsonrpc: '2.0', id, result };
      } catch (e) {
        return odooErrorEnvelope(id, e, req.log);
      }
    });
  const live = (req: FastifyRequest) => sessions.resolve(sessionIdOf(req), requestedDb(req));
  const setCookie = (req: FastifyRequest, reply: FastifyReply, value: string, maxAge: number) =>
    reply.header(
      'set-cookie',
      stringifySetCookie({
        name: 'session_id',
        value,
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        secure: req.protocol === 'https',
        maxAge,
      }),
    );

  route('/web/session/authenticate', async (p, req, reply) => {
    required('authenticate', p, ['db', 'login', 'password']);
    const s = await sessions.authenticate(String(p.db), String(p.login), String(p.password), req.ip, sessionIdOf(req));
    setCookie(req, reply, s.sid, sessions.ttlSeconds);
    return sessionInfo(gateway, s.db, s.uid, baseUrl(req));
  });
  route('/web/session/get_session_info', async (_p, req) => {
    const s = await live(req);
    return sessionInfo(gateway, s.db, s.uid, baseUrl(req));
  });
  route('/web/session/check', async (_p, req) => {
    await live(req);
    return null;
  });
  route('/web/session/destroy', async (_p, req, reply) => {
    await live(req);
    await sessions.destroy(sessionIdOf(req)!);
    setCookie(req, reply, '', 0);
    return null;
  });

  const callKw = async (p: Params, req: FastifyRequest) => {
    required('call_kw', p, ['model', 'method', 'args', 'kwargs']);
    const s = await live(req);
    return gateway.callKw(s.db, s.uid, p.model, p.method, p.args, p.kwargs, { lang: 'en_US', uid: s.uid });
  };
  route('/web/dataset/call_kw', callKw);
  route('/web/dataset/call_kw/*', callKw);
  route('/web/dataset/search_read', async (p, req) => {
    required('search_read', p, ['model']);
    const s = await live(req);
    return webSearchRead(gateway, s, p);
  });

  route('/web/database/list', async () => gateway.erp.listDatabases());
  route('/web/webclient/version_info', async () => SERVER_VERSION);
}
