/**
 * Test support: an HTTP proxy on loopback in front of a real server (the ERP, a provider) that can
 * forward a request, let the server finish it, and then drop the reply (the client's socket is
 * destroyed with no response). The server committed; the caller sees a network failure: the
 * "lost reply" every retry must survive without doing the work twice.
 *
 *   const proxy = await startReplyDroppingProxy(erp.url);
 *   proxy.dropNext(odooCall('crm.lead', 'create'));   // the next lead create commits, its reply is lost
 *   ... point the code under test at proxy.url ...
 *   expect(proxy.dropped).toHaveLength(1);
 */
import { createServer, type IncomingHttpHeaders, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ProxiedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export type RequestMatcher = (r: ProxiedRequest) => boolean;

export interface ReplyDroppingProxy {
  url: string;
  /** The next `times` requests that match (default: any) are forwarded, then their replies dropped. */
  dropNext(match?: RequestMatcher, times?: number): void;
  /** Requests whose reply was dropped after the server answered them (status it answered with). */
  dropped: (ProxiedRequest & { upstreamStatus: number })[];
  /** Every request seen, in order. */
  seen: ProxiedRequest[];
  close(): Promise<void>;
}

/** Matches an Odoo JSON-RPC `execute_kw` of `model`.`method` (args: db, uid, key, model, method, …). */
export function odooCall(model: string, method: string): RequestMatcher {
  return (r) => {
    try {
      const args = (JSON.parse(r.body) as { params?: { method?: string; args?: unknown[] } }).params;
      return args?.method === 'execute_kw' && args.args?.[3] === model && args.args?.[4] === method;
    } catch {
      return false;
    }
  };
}

export async function startReplyDroppingProxy(target: string): Promise<ReplyDroppingProxy> {
  const upstream = new URL(target);
  const rules: { match: RequestMatcher; left: number }[] = [];
  const dropped: ReplyDroppingProxy['dropped'] = [];
  const seen: ProxiedRequest[] = [];

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const seenReq: ProxiedRequest = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: req.headers,
        body: body.toString('utf8'),
      };
      seen.push(seenReq);
      const rule = rules.find((x) => x.left > 0 && x.match(seenReq));
      if (rule) rule.left--;
      const headers = { ...req.headers, host: upstream.host, 'content-length': String(body.length) };
      const out = httpRequest(
        { hostname: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers },
        (up) => {
          const parts: Buffer[] = [];
          up.on('data', (c: Buffer) => parts.push(c));
          up.on('end', () => {
            if (rule) {
              // The server finished (and committed); the caller never hears of it.
              dropped.push({ ...seenReq, upstreamStatus: up.statusCode ?? 0 });
              req.socket.destroy();
              return;
            }
            const h = { ...up.headers };
            delete h['transfer-encoding'];
            res.writeHead(up.statusCode ?? 502, { ...h, 'content-length': String(Buffer.concat(parts).length) });
            res.end(Buffer.concat(parts));
          });
        },
      );
      out.on('error', () => req.socket.destroy());
      out.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    dropNext: (match = () => true, times = 1) => void rules.push({ match, left: times }),
    dropped,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
