/**
 * Decodes a request body by the charset its Content-Type declares (RFC 8259 JSON is UTF-8, but
 * clients do send `charset=utf-16` or a UTF-16 byte-order mark). TextDecoder knows every WHATWG
 * encoding label; `fatal` makes bytes that are invalid in that charset an error instead of U+FFFD.
 */
import { isUtf8 } from 'node:buffer';

import { AppError } from '@platform/kernel';

const CHARSET_RE = /;\s*charset\s*=\s*"?([^";\s]+)"?/i;

/** The declared charset, lower-cased, or undefined. */
export function charsetOf(contentType: string | undefined): string | undefined {
  const m = contentType ? CHARSET_RE.exec(contentType) : null;
  return m?.[1]?.toLowerCase();
}

function labelFor(buf: Uint8Array, declared: string | undefined): string {
  const be = buf[0] === 0xfe && buf[1] === 0xff;
  const le = buf[0] === 0xff && buf[1] === 0xfe;
  // A byte-order mark is authoritative for undeclared or generic UTF-16 bodies.
  if (declared === undefined || declared === 'utf-16' || declared === 'utf16')
    return be ? 'utf-16be' : le ? 'utf-16le' : (declared ?? 'utf-8');
  return declared;
}

const decoders = new Map<string, TextDecoder>();
const UTF8 = new Set(['utf-8', 'utf8', 'unicode-1-1-utf-8']);

export function decodeBody(buf: Uint8Array, contentType: string | undefined): string {
  const label = labelFor(buf, charsetOf(contentType));
  // The common case without a decoder: Node's native UTF-8 check, then a plain toString.
  if (UTF8.has(label)) {
    if (!isUtf8(buf)) throw new AppError('BODY_ENCODING_INVALID', 'The body is not valid UTF-8.');
    const b = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
    return b.toString('utf8', b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? 3 : 0);
  }
  let decoder = decoders.get(label);
  if (!decoder) {
    try {
      decoder = new TextDecoder(label, { fatal: true });
    } catch {
      throw new AppError('UNSUPPORTED_CHARSET', `The charset "${label.slice(0, 40)}" is not supported; send UTF-8.`);
    }
    // Labels come from clients: keep the few real ones, not one entry per invented alias.
    if (decoders.size < 64) decoders.set(label, decoder);
  }
  try {
    return decoder.decode(buf);
  } catch {
    throw new AppError('BODY_ENCODING_INVALID', `The body is not valid ${decoder.encoding}.`);
  }
}
