import { connect } from 'node:net';

import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { registerProblemHandlers } from '../error-handler.plugin.js';
import { problemClientErrorHandler } from './client-errors.js';
import { acceptRawBodies, problemFrameworkErrors, registerInputHandling } from './input-handling.js';
import { findBadString } from './string-guard.js';

let app: FastifyInstance;
const seen: unknown[] = [];
beforeAll(async () => {
  app = Fastify({
    bodyLimit: 1024,
    frameworkErrors: problemFrameworkErrors,
    clientErrorHandler: problemClientErrorHandler,
  });
  registerInputHandling(app);
  registerProblemHandlers(app);
  app.post('/echo', async (req) => ({ body: req.body }));
  app.get('/q', async (req) => ({ query: req.query }));
  void app.register(async (scope) => {
    acceptRawBodies(scope);
    scope.post('/hook', async (req) => {
      seen.push(req.body);
      return { bytes: Buffer.isBuffer(req.body) ? req.body.length : -1 };
    });
  });
  await app.ready();
});
afterAll(() => app.close());

const post = (payload: string | Buffer, contentType = 'application/json', url = '/echo') =>
  app.inject({ method: 'POST', url, headers: { 'content-type': contentType }, payload });

const utf16le = (s: string) => Buffer.from(s, 'utf16le');
const utf16be = (s: string) => utf16le(s).swap16();

describe('request bodies', () => {
  it('decodes JSON sent as UTF-16 (declared, or by its byte-order mark) instead of reading it as UTF-8', async () => {
    const json = '{"name":"Zoë 🪟"}';
    for (const [bytes, type] of [
      [utf16le(json), 'application/json; charset=utf-16le'],
      [utf16be(json), 'application/json; charset=UTF-16BE'],
      [Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be(json)]), 'application/json; charset=utf-16'],
      [Buffer.concat([Buffer.from([0xff, 0xfe]), utf16le(json)]), 'application/json'],
      [Buffer.from('{"name":"Zo\xeb"}', 'latin1'), 'application/json; charset="iso-8859-1"'],
      [Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(json)]), 'application/json; charset=UTF-8'],
    ] as const) {
      const r = await post(bytes, type);
      expect(r.statusCode, type).toBe(200);
      expect(r.json().body.name, type).toMatch(/^Zoë/);
    }
  });

  it('refuses an unknown charset (415) and bytes invalid in the declared one (400), as problem+json', async () => {
    const unknown = await post('{}', 'application/json; charset=klingon');
    expect(unknown.statusCode).toBe(415);
    expect(unknown.headers['content-type']).toContain('application/problem+json');
    expect(unknown.json().code).toBe('UNSUPPORTED_CHARSET');
    const badUtf8 = await post(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]));
    expect(badUtf8.statusCode).toBe(400);
    expect(badUtf8.json().code).toBe('BODY_ENCODING_INVALID');
    const oddUtf16 = await post(Buffer.from([0x7b, 0x00, 0x7d]), 'application/json; charset=utf-16le');
    expect(oddUtf16.json().code).toBe('BODY_ENCODING_INVALID');
  });

  it('answers other media types with 415 and oversized bodies with 413, both problem+json', async () => {
    const text = await post('{"a":1}', 'text/plain');
    expect([text.statusCode, text.json().code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    const big = await post(JSON.stringify({ a: 'x'.repeat(2000) }));
    expect([big.statusCode, big.json().code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    expect(big.headers['content-type']).toContain('application/problem+json');
    const poisoned = await post('{"__proto__":{"admin":true}}');
    expect([poisoned.statusCode, poisoned.json().code]).toEqual([400, 'MALFORMED_JSON']);
  });

  it('refuses a NUL or a lone surrogate anywhere with 422 naming the JSON path, never echoing the value', async () => {
    const nul = await post(JSON.stringify({ contact: { emails: ['ok@example.com', 'jane\u0000@example.com'] } }));
    expect(nul.statusCode).toBe(422);
    expect(nul.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: [{ field: 'contact.emails.1', rule: 'no_nul_character' }],
    });
    expect(nul.body).not.toContain('jane');
    const lone = await post('{"name":"a\\ud800b"}');
    expect(lone.json().errors).toEqual([expect.objectContaining({ field: 'name', rule: 'well_formed_unicode' })]);
    const key = await post('{"a\\u0000b":1}');
    expect(key.json().errors[0]).toMatchObject({ field: 'a\\u0000b', rule: 'no_nul_character' });
    const query = await app.inject({ method: 'GET', url: '/q?domain=%00' });
    expect([query.statusCode, query.json().errors[0].field]).toEqual([422, 'query.domain']);
    const paired = await post(JSON.stringify({ name: 'window 🪟' }));
    expect(paired.statusCode).toBe(200);
  });

  it('hands a webhook scope the raw bytes whatever the media type, text/plain included', async () => {
    for (const type of ['text/plain', 'application/json; charset=utf-16', 'application/octet-stream']) {
      const r = await post('{"events":[]}', type, '/hook');
      expect(r.json(), type).toEqual({ bytes: 13 });
    }
    const big = await post('x'.repeat(2000), 'text/plain', '/hook');
    expect([big.statusCode, big.json().code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
  });

  it('answers deeply nested JSON (with a key the prototype check scans) without a 5xx', async () => {
    const deep = Fastify({ bodyLimit: 4 * 1024 * 1024 });
    registerInputHandling(deep);
    registerProblemHandlers(deep);
    deep.post('/echo', async () => ({ ok: true }));
    const body = `${'{"constructor":'.repeat(200_000)}1${'}'.repeat(200_000)}`;
    const r = await deep.inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/json' },
      payload: body,
    });
    expect(r.statusCode).toBeLessThan(500);
    await deep.close();
  });

  it('answers a malformed URL with problem+json', async () => {
    const r = await app.inject({ method: 'GET', url: '/q%E0%A4%A' });
    expect(r.statusCode).toBe(400);
    expect(r.headers['content-type']).toContain('application/problem+json');
  });
});

/** Sends raw bytes over TCP and returns what the server wrote back before closing. */
async function raw(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let out = '';
    socket.on('data', (d) => (out += d.toString('latin1')));
    socket.on('close', () => resolve(out));
    socket.on('error', reject);
  });
}

describe('requests the HTTP parser refuses', () => {
  it('are answered as problem+json: a NUL in a header (400), a header block too large (431)', async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as { port: number }).port;
    const nul = await raw(port, 'GET /q HTTP/1.1\r\nHost: x\r\nX-A: a\u0000b\r\n\r\n');
    expect(nul).toMatch(/^HTTP\/1\.1 400 /);
    expect(nul).toContain('application/problem+json');
    expect(JSON.parse(nul.slice(nul.indexOf('\r\n\r\n') + 4))).toMatchObject({ status: 400, code: 'BAD_REQUEST' });
    const big = await raw(port, `GET /q HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(big).toMatch(/^HTTP\/1\.1 431 /);
    expect(big).toContain('"code":"HEADERS_TOO_LARGE"');
  });
});

describe('findBadString', () => {
  it('walks deeply nested JSON without recursion', () => {
    let v: unknown = 'x\u0000';
    for (let i = 0; i < 500_000; i++) v = [v];
    expect(findBadString(v)?.field).toBe(`${'0.'.repeat(16)}…${'.0'.repeat(15)}`);
  });
});
