/** Small network helpers for proxy tests: free loopback ports and HTTPS requests with SNI and a source address. */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

export { freePort } from '@platform/http-kit/free-port';

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface CallOptions {
  /** The host name asked for (SNI and Host); the connection goes to 127.0.0.1:port. */
  host: string;
  port: number;
  path: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Trusted root for HTTPS; plain HTTP when absent. */
  ca?: string;
  /** Source address on the loopback (e.g. 127.0.0.2), to tell clients apart. */
  localAddress?: string;
}

export function call(o: CallOptions): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const common = {
      host: '127.0.0.1',
      port: o.port,
      path: o.path,
      method: o.method ?? 'GET',
      headers: {
        host: o.host,
        ...(o.body !== undefined ? { 'content-length': String(Buffer.byteLength(o.body)) } : {}),
        ...o.headers,
      },
      agent: false as const,
      ...(o.localAddress ? { localAddress: o.localAddress } : {}),
    };
    const req = o.ca ? httpsRequest({ ...common, servername: o.host, ca: o.ca }) : httpRequest(common);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    req.on('error', reject);
    req.end(o.body);
  });
}
