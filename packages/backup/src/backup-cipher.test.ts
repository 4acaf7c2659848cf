import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

import { parseKeyring } from '@platform/secrets';
import { readAll } from '@platform/storage';
import { describe, expect, it } from 'vitest';

import { decryptStream, encryptStream, keyIdOf } from './backup-cipher.js';

const key = () => randomBytes(32).toString('base64');
const k1 = key();
const k2 = key();

async function roundTrip(data: Buffer[], sealRing: string, openRing: string): Promise<Buffer> {
  const sealed = await readAll(Readable.from(data).pipe(encryptStream(parseKeyring(sealRing))));
  const out: Buffer[] = [];
  await pipeline(Readable.from([sealed]), decryptStream(parseKeyring(openRing)), async function (src) {
    for await (const c of src) out.push(c as Buffer);
  });
  return Buffer.concat(out);
}

describe('backup encryption', () => {
  it('gives back a multi-megabyte stream byte for byte, chunked any way', async () => {
    const parts = Array.from({ length: 5 }, () => randomBytes(700_001));
    expect((await roundTrip(parts, `a:${k1}`, `a:${k1}`)).equals(Buffer.concat(parts))).toBe(true);
    expect((await roundTrip([], `a:${k1}`, `a:${k1}`)).length).toBe(0);
  });

  it('opens an archive sealed with an older key after rotation, and names the key', async () => {
    const sealed = await readAll(Readable.from([Buffer.from('dump')]).pipe(encryptStream(parseKeyring(`old:${k1}`))));
    expect(keyIdOf(sealed)).toBe('old');
    expect((await roundTrip([Buffer.from('dump')], `old:${k1}`, `old:${k1},new:${k2}`)).toString()).toBe('dump');
  });

  it('refuses an altered archive, a truncated one and one whose key is missing', async () => {
    const sealed = await readAll(Readable.from([randomBytes(5000)]).pipe(encryptStream(parseKeyring(`a:${k1}`))));
    const open = (buf: Buffer, ring = `a:${k1}`) =>
      readAll(Readable.from([buf]).pipe(decryptStream(parseKeyring(ring))));
    const flipped = Buffer.from(sealed);
    flipped[100] = flipped[100]! ^ 1;
    await expect(open(flipped)).rejects.toThrow(/integrity check/);
    await expect(open(sealed.subarray(0, sealed.length - 5))).rejects.toThrow(/integrity check|truncated/);
    await expect(open(sealed, `b:${k2}`)).rejects.toThrow(/key "a", which is not in BACKUP_KEYRING/);
  });
});
