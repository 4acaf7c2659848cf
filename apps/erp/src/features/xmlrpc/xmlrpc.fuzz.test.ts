/**
 * Fuzz cases for XML-RPC (fast-check, fixed seed, bounded runs): what we encode, the npm clients'
 * codec reads back unchanged; mangled and random requests get a fault (or 413), never a 500, a
 * crash or a hang.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { useErpHost } from '../../../test/support/erp-host.js';
import { encodeCall, parseResponse } from '../../../test/support/xmlrpc-wire.js';
import { decodeMethodCall, encodeResponse, XmlRpcDecodeError } from './xmlrpc.codec.js';

const SEED = 20_151_015;

const INVALID =
  // eslint-disable-next-line no-control-regex -- the C0 controls XML 1.0 cannot carry, as the codec strips them
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Values of every XML-RPC type; `legal` keeps to characters XML can carry (the client codec refuses others). */
function values(legal: boolean) {
  const text = fc.string({ unit: 'binary', maxLength: 24 }).map((s) => (legal ? s.replace(INVALID, '') : s));
  return fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', maxDepth: 4 },
      fc.boolean(),
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      text,
      fc.array(tie('value'), { maxLength: 4 }),
      fc.dictionary(
        text.filter((k) => k !== '__proto__'),
        tie('value'),
        { maxKeys: 4 },
      ),
    ),
  })).value;
}
const value = values(false);
const param = values(true);
/** What XML can carry: characters XML 1.0 forbids become U+FFFD, -0 is 0. */
function carried(v: unknown): unknown {
  if (typeof v === 'string') return v.replace(INVALID, '\uFFFD');
  if (typeof v === 'number') return Object.is(v, -0) ? 0 : v;
  if (Array.isArray(v)) return v.map(carried);
  if (v && typeof v === 'object')
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [carried(k), carried(x)]));
  return v;
}

describe('XML-RPC codec', () => {
  it('encodes any value so that the npm clients decode it unchanged', async () => {
    await fc.assert(
      fc.asyncProperty(value, async (v) => {
        expect((await parseResponse(encodeResponse(v))).value).toEqual(carried(v));
      }),
      { seed: SEED, numRuns: 400 },
    );
  });

  it('decodes what a client encodes, and refuses mangled requests with a decode error, never anything else', async () => {
    const call = fc.tuple(fc.constantFrom('execute_kw', 'authenticate', 'version'), fc.array(param, { maxLength: 4 }));
    const mangle = fc.tuple(fc.nat(), fc.nat({ max: 40 }), fc.string({ unit: 'binary', maxLength: 12 }));
    await fc.assert(
      fc.asyncProperty(call, mangle, async ([method, params], [at, cut, insert]) => {
        const good = encodeCall(method, params);
        expect(await decodeMethodCall(good)).toMatchObject({ method });
        const i = at % good.length;
        const bad = good.slice(0, i) + insert + good.slice(i + cut);
        await decodeMethodCall(bad).catch((e: unknown) => expect(e).toBeInstanceOf(XmlRpcDecodeError));
      }),
      { seed: SEED, numRuns: 300 },
    );
  });
});

describe('XML-RPC endpoint under random bodies', () => {
  const host = useErpHost('fz');

  it('answers every body with an XML-RPC response or fault (HTTP 200), never a 500', async () => {
    const args = fc.array(param, { maxLength: 6 });
    const body = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 200 }),
      args.map((a) => encodeCall('execute_kw', ['fz', 2, 'pw', 'res.partner', ...a])),
      fc.tuple(args, fc.nat(), fc.string({ maxLength: 8 })).map(([a, at, ins]) => {
        const good = encodeCall('execute_kw', ['fz', 2, 'pw', 'crm.lead', 'search_read', ...a]);
        const i = at % good.length;
        return good.slice(0, i) + ins + good.slice(i);
      }),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('common', 'object', 'db', 'x'), body, async (service, payload) => {
        const res = await host.app.inject({
          method: 'POST',
          url: `/xmlrpc/2/${service}`,
          headers: { 'content-type': 'text/xml' },
          payload,
        });
        expect(res.statusCode).toBe(200);
        const parsed = await parseResponse(res.body);
        expect(parsed.value !== undefined || parsed.fault !== undefined).toBe(true);
        if (parsed.fault) expect([1, 2, 3, 4]).toContain(parsed.fault.faultCode);
      }),
      { seed: SEED, numRuns: 150 },
    );
  }, 120_000);
});
