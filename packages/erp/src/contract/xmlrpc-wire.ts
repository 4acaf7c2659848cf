/**
 * Test side of XML-RPC, with the codec the npm clients use (the `xmlrpc` package, not the ERP's),
 * so a test reads the bytes the way odoo-await and odoo-xmlrpc do.
 */
import { createRequire } from 'node:module';
import { Readable } from 'node:stream';

const require = createRequire(import.meta.url);
const Serializer = require('xmlrpc/lib/serializer') as {
  serializeMethodCall(method: string, params: unknown[]): string;
};
const Deserializer = require('xmlrpc/lib/deserializer') as new () => {
  deserializeMethodResponse(
    stream: Readable,
    cb: (err: (Error & { faultCode?: unknown; faultString?: unknown }) | null, value: unknown) => void,
  ): void;
};

export const encodeCall = (method: string, params: unknown[]): string => Serializer.serializeMethodCall(method, params);

export interface WireResult {
  value?: unknown;
  fault?: { faultCode: unknown; faultString: unknown };
}

/** `{ value }` for a response, `{ fault }` for a fault; throws when the body is not XML-RPC. */
export function parseResponse(xml: string): Promise<WireResult> {
  return new Promise((resolve, reject) => {
    new Deserializer().deserializeMethodResponse(Readable.from([xml]), (err, value) => {
      if (err && err.faultCode !== undefined)
        resolve({ fault: { faultCode: err.faultCode, faultString: err.faultString } });
      else if (err) reject(err);
      else resolve({ value });
    });
  });
}

/** POSTs one XML-RPC call; answers the raw text, the status and the decoded result. */
export async function xmlrpcCall(
  url: string,
  method: string,
  params: unknown[],
): Promise<{ status: number; contentType: string | null; text: string } & WireResult> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'text/xml' },
    body: encodeCall(method, params),
  });
  const text = await res.text();
  return { status: res.status, contentType: res.headers.get('content-type'), text, ...(await parseResponse(text)) };
}
