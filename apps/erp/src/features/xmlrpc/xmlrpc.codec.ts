/**
 * XML-RPC codec with Odoo 15's value mapping.
 *
 * Decoding uses @foxglove/xmlrpc's Deserializer (sax underneath, an explicit stack rather than
 * recursion). It is guarded first: a DTD or entity declaration is refused outright (XML-RPC never
 * needs one; sax would not expand it, but nothing is gained by letting it through), and nesting
 * deeper than XMLRPC_MAX_DEPTH is refused before any value reaches the ERP.
 *
 * Encoding is written here, byte for byte as Python's `xmlrpc.client.dumps` (which Odoo 15 uses)
 * writes it, so recorded Odoo responses and ours compare equal. @foxglove/xmlrpc's serializer writes
 * strings holding `<` or `&` as CDATA and builds a DOM per response (xmlbuilder2), which differs from
 * Odoo's bytes and costs a third of a `search_read` round trip.
 */
import { Deserializer } from '@foxglove/xmlrpc';
import { OdooError } from '@platform/erp-embedded';

/** Arrays and structs nested deeper than this are refused (an Odoo domain needs a handful). */
export const XMLRPC_MAX_DEPTH = 64;
const MAX_INT = 2 ** 31 - 1;

export class XmlRpcDecodeError extends Error {}

const DTD_RE = /<!DOCTYPE|<!ENTITY/i;
const TAG_RE = /<(\/?)(array|struct)\b/gi;

/** Counts array/struct nesting on the raw text, so a 10,000-deep body is refused before parsing. */
function assertDepth(xml: string): void {
  let depth = 0;
  for (const m of xml.matchAll(TAG_RE)) {
    depth += m[1] ? -1 : 1;
    if (depth > XMLRPC_MAX_DEPTH)
      throw new XmlRpcDecodeError(`values nested deeper than ${XMLRPC_MAX_DEPTH} levels are not accepted`);
  }
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
const odooDatetime = (d: Date) =>
  `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;

/** XML-RPC values as the dispatcher takes them: nil → null, dateTime → Odoo's datetime string, base64 → string. */
function toDispatch(v: unknown): unknown {
  if (v === undefined || v === null) return null;
  if (Array.isArray(v)) return v.map(toDispatch);
  if (v instanceof Date) {
    if (Number.isNaN(v.getTime())) throw new XmlRpcDecodeError('invalid dateTime.iso8601 value');
    return odooDatetime(v);
  }
  if (v instanceof Uint8Array) return Buffer.from(v).toString('base64');
  if (typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = toDispatch(x);
    return out;
  }
  return v;
}

export interface XmlRpcCall {
  method: string;
  params: unknown[];
}

export async function decodeMethodCall(xml: string): Promise<XmlRpcCall> {
  if (!xml.trim()) throw new XmlRpcDecodeError('empty request body');
  if (DTD_RE.test(xml)) throw new XmlRpcDecodeError('DTDs and entity declarations are not accepted');
  assertDepth(xml);
  let method: string;
  let params: unknown[];
  try {
    // sax parses synchronously: a call that has not settled once the parser returned never will.
    const parsed = new Deserializer().deserializeMethodCall(xml);
    const stalled = new Promise<never>((_, reject) =>
      setImmediate(() => reject(new Error('incomplete XML-RPC request'))),
    );
    [method, params] = await Promise.race([parsed, stalled]);
  } catch (e) {
    throw new XmlRpcDecodeError((e as Error).message.split('\n')[0] ?? 'malformed XML-RPC request');
  }
  // <i8> arrives as a string (no Python client sends one: xmlrpc.client refuses ints past 32 bits).
  return { method, params: params.map(toDispatch) };
}

// --- encoding -------------------------------------------------------------------------------

// Characters XML 1.0 cannot carry: Python would send them raw and the client's parser would choke.
const INVALID_XML =
  // eslint-disable-next-line no-control-regex -- XML 1.0's Char production excludes exactly these C0 controls
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const escapeXml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(INVALID_XML, '\uFFFD');

/** Odoo's "cannot marshal None" TypeError (`allow_none=False`), raised in Odoo's own dispatch. */
export const noneRefused = () =>
  new OdooError('builtins.TypeError', 'cannot marshal None unless allow_none is enabled');

function pyFloat(n: number): string {
  if (Number.isNaN(n)) return 'nan';
  if (!Number.isFinite(n)) return n > 0 ? 'inf' : '-inf';
  const s = String(n);
  return /[.e]/.test(s) ? s : `${s}.0`;
}

function dump(v: unknown, out: string[], depth: number): void {
  if (depth > XMLRPC_MAX_DEPTH) throw new OdooError('builtins.ValueError', 'value too deeply nested to marshal');
  switch (typeof v) {
    case 'boolean':
      out.push(`<value><boolean>${v ? 1 : 0}</boolean></value>\n`);
      return;
    case 'number':
      // Python marshals int as <int> (within 32 bits) and float as <double>; JS has one number type.
      if (Number.isInteger(v) && v <= MAX_INT && v >= -MAX_INT - 1) out.push(`<value><int>${v}</int></value>\n`);
      else out.push(`<value><double>${pyFloat(v)}</double></value>\n`);
      return;
    case 'string':
      out.push(`<value><string>${escapeXml(v)}</string></value>\n`);
      return;
    case 'bigint':
      out.push(`<value><string>${v}</string></value>\n`);
      return;
    case 'object':
      if (v === null) throw noneRefused();
      if (Array.isArray(v)) {
        out.push('<value><array><data>\n');
        for (const x of v) dump(x, out, depth + 1);
        out.push('</data></array></value>\n');
        return;
      }
      if (v instanceof Date) {
        out.push(`<value><string>${odooDatetime(v)}</string></value>\n`);
        return;
      }
      out.push('<value><struct>\n');
      for (const [k, x] of Object.entries(v)) {
        if (x === undefined) continue;
        out.push(`<member>\n<name>${escapeXml(k)}</name>\n`);
        dump(x, out, depth + 1);
        out.push('</member>\n');
      }
      out.push('</struct></value>\n');
      return;
    default:
      throw noneRefused();
  }
}

const HEAD = "<?xml version='1.0'?>\n<methodResponse>\n";

/** `xmlrpc.client.dumps((result,), methodresponse=1, allow_none=False)`; a None anywhere is refused. */
export function encodeResponse(result: unknown): string {
  const out = [HEAD, '<params>\n<param>\n'];
  dump(result, out, 0);
  out.push('</param>\n</params>\n</methodResponse>\n');
  return out.join('');
}

export function encodeFault(faultCode: number | string, faultString: string): string {
  const out = [HEAD, '<fault>\n'];
  dump({ faultCode, faultString }, out, 0);
  out.push('</fault>\n</methodResponse>\n');
  return out.join('');
}
