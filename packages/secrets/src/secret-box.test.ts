import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { createSecretBox, loadOrCreateLocalKeyring, maskSecret, parseKeyring } from './secret-box.js';

const k = () => randomBytes(32).toString('base64');
const ring = parseKeyring(`old:${k()},new:${k()}`, 'new');
const box = createSecretBox(ring);

describe('secret box (AES-256-GCM, key id beside the ciphertext)', () => {
  it('round-trips, and the stored form holds neither the secret nor a repeatable ciphertext', () => {
    const a = box.seal('client-secret-CANARY', 'tenant-a|acct|client_secret|1');
    const b = box.seal('client-secret-CANARY', 'tenant-a|acct|client_secret|1');
    expect(a).not.toContain('CANARY');
    expect(a).not.toBe(b);
    expect(a.split('.')[1]).toBe('new');
    expect(box.open(a, 'tenant-a|acct|client_secret|1')).toBe('client-secret-CANARY');
  });

  it('refuses a ciphertext moved to another row or tenant (AAD), a tampered one and a truncated tag', () => {
    const s = box.seal('webhook-key', 'tenant-a|acct|webhook_key|1');
    expect(() => box.open(s, 'tenant-b|acct|webhook_key|1')).toThrow();
    const parts = s.split('.');
    const flipped = Buffer.from(parts[4]!, 'base64url');
    flipped[0] = flipped[0]! ^ 1;
    expect(() =>
      box.open([...parts.slice(0, 4), flipped.toString('base64url')].join('.'), 'tenant-a|acct|webhook_key|1'),
    ).toThrow();
    const shortTag = Buffer.from(parts[3]!, 'base64url').subarray(0, 8).toString('base64url');
    expect(() =>
      box.open([parts[0], parts[1], parts[2], shortTag, parts[4]].join('.'), 'tenant-a|acct|webhook_key|1'),
    ).toThrow(/bad tag/);
  });

  it('rotates: old ciphertexts still open, reseal moves them to the active key', () => {
    const oldBox = createSecretBox({ ...ring, activeKeyId: 'old' });
    const s = oldBox.seal('token', 'aad');
    expect(box.open(s, 'aad')).toBe('token');
    const r = box.reseal(s, 'aad');
    expect(r.split('.')[1]).toBe('new');
    expect(box.open(r, 'aad')).toBe('token');
    const withoutOld = createSecretBox(parseKeyring(`new:${ring.keys.get('new')!.toString('base64')}`));
    expect(withoutOld.open(r, 'aad')).toBe('token');
    expect(() => withoutOld.open(s, 'aad')).toThrow(/not in the keyring/);
  });

  it('refuses keys that are not 32 bytes and an active key missing from the ring', () => {
    expect(() => parseKeyring(`a:${randomBytes(16).toString('base64')}`)).toThrow(/32 bytes/);
    expect(() => parseKeyring(`a:${k()}`, 'b')).toThrow(/active key b/);
  });

  it('embedded mode keeps its keyring in the data directory, private to the owner, stable across starts', () => {
    const dir = mkdtempSync(join(tmpdir(), 'keyring-'));
    try {
      const first = loadOrCreateLocalKeyring(dir);
      expect(statSync(join(dir, 'secrets.keyring')).mode & 0o777).toBe(0o600);
      const sealed = createSecretBox(first).seal('x', 'y');
      expect(createSecretBox(loadOrCreateLocalKeyring(dir)).open(sealed, 'y')).toBe('x');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('masks secrets shown back to operators', () => {
    expect(maskSecret('abcdefghijkl')).toBe('••••ijkl');
    expect(maskSecret('short')).toBe('••••');
    expect(maskSecret(null)).toBeNull();
  });
});
