/** The customer's signature as the portal sends it: a base64 PNG, checked before it is stored. */
import { AppError } from '@platform/kernel';

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

const bad = (rule: string, message: string) =>
  new AppError('VALIDATION_FAILED', `The signature ${message}.`, {
    fieldIssues: [{ field: 'signature_png_base64', rule, message }],
  });

/** The PNG's bytes; refuses what is not base64, not a PNG (signature and IHDR), or larger than `maxBytes`. */
export function decodeSignature(b64: string, maxBytes: number): Buffer {
  const s = b64.replace(/^data:image\/png;base64,/, '');
  if (s.length > Math.ceil((maxBytes * 4) / 3) + 4) throw bad('max_bytes', `must be at most ${maxBytes} bytes`);
  if (!BASE64.test(s) || s.length % 4 !== 0) throw bad('base64', 'must be base64');
  const png = Buffer.from(s, 'base64');
  if (png.length > maxBytes) throw bad('max_bytes', `must be at most ${maxBytes} bytes`);
  // A PNG starts with its 8-byte signature and then the IHDR chunk (13 bytes of width, height...).
  const ok =
    png.length >= 33 &&
    png.subarray(0, 8).equals(PNG_MAGIC) &&
    png.readUInt32BE(8) === 13 &&
    png.subarray(12, 16).toString('latin1') === 'IHDR' &&
    png.readUInt32BE(16) > 0 &&
    png.readUInt32BE(20) > 0;
  if (!ok) throw bad('png', 'must be a PNG image');
  return png;
}
