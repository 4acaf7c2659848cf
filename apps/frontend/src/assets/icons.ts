/**
 * The app icon drawn in code (a window with a blind half down, on the tenant's colour), so every
 * tenant's installed app carries its own colour without an image pipeline. The PNG encoder is the
 * format's minimum: one IDAT of unfiltered RGB rows, deflated by zlib.
 */
import { deflateSync } from 'node:zlib';

export function iconSvg(primary: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 96 96"><rect width="96" height="96" rx="18" fill="${primary}"/><rect x="22" y="18" width="52" height="60" rx="3" fill="none" stroke="#fff" stroke-width="6"/><rect x="25" y="21" width="46" height="26" fill="#fff"/><path d="M48 47v28M25 61h46" stroke="#fff" stroke-width="4"/></svg>`;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}

/** Same drawing as the SVG, at `size` pixels (maskable: the motif stays inside the safe zone). */
export function iconPng(primary: string, size: number): Buffer {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(primary.slice(i, i + 2), 16)) as [number, number, number];
  const row = size * 3 + 1;
  const px = Buffer.alloc(row * size);
  const u = size / 96;
  const white = (x: number, y: number): boolean => {
    const inFrame = x >= 22 * u && x < 74 * u && y >= 18 * u && y < 78 * u;
    const inside = x >= 28 * u && x < 68 * u && y >= 24 * u && y < 72 * u;
    const blind = x >= 25 * u && x < 71 * u && y >= 21 * u && y < 47 * u;
    const bars = (Math.abs(x - 48 * u) < 2 * u && y >= 47 * u) || (Math.abs(y - 61 * u) < 2 * u && y >= 47 * u);
    return (inFrame && !inside) || blind || (inside && bars);
  };
  for (let y = 0; y < size; y++) {
    px[y * row] = 0;
    for (let x = 0; x < size; x++) {
      const o = y * row + 1 + x * 3;
      const w = white(x, y);
      px[o] = w ? 255 : r;
      px[o + 1] = w ? 255 : g;
      px[o + 2] = w ? 255 : b;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(px)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
