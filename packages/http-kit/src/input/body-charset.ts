/**
 * Decodes a request body by the charset its Content-Type declares (RFC 8259 JSON is UTF-8, but
 * clients do send `charset=utf-16` or a UTF-16 byte-order mark). TextDecoder knows every WHATWG
 * encoding label; `fatal` makes bytes that are invalid in that charset an error instead of U+FFFD.
 */
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
  if (declared === undefined || declared === 'utf-16' || declared === 'utf16') return be ? 'utf-16be' : le ? 'utf-16le' : declared ?? 'utf-8';
  return declared;
}

export function decodeBody(buf: Uint8Array, contentType: string | undefined): string {
  const label = labelFor(buf, charsetOf(contentType));
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(label, { fatal: true });
  } catch {
    throw new AppError('UNSUPPORTED_CHARSET', `The charset "${label.slice(0, 40)}" is not supported; send UTF-8.`);
  }
  try {
    return decoder.decode(buf);
  } catch {
    throw new AppError('BODY_ENCODING_INVALID', `The body is not valid ${decoder.encoding}.`);
  }
}
