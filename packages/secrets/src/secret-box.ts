/**
 * Credentials at rest: AES-256-GCM with a fresh 96-bit IV and a 16-byte tag, the key id stored beside
 * the ciphertext so keys can rotate, and AAD binding a ciphertext to its row (a value copied to
 * another tenant's row does not decrypt). Node's crypto is the implementation; this file is the format.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Keyring {
  keys: Map<string, Buffer>;
  activeKeyId: string;
}

export interface SecretBox {
  /** `v1.<keyId>.<iv>.<tag>.<ciphertext>` (base64url parts). */
  seal(plaintext: string, aad: string): string;
  open(sealed: string, aad: string): string;
  /** Re-encrypts under the active key (key rotation); unchanged when already under it. */
  reseal(sealed: string, aad: string): string;
}

const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;

/** `SECRETS_KEYRING`: `id1:<base64 32 bytes>,id2:<…>`; the active key is named separately. */
export function parseKeyring(spec: string, activeKeyId?: string): Keyring {
  const keys = new Map<string, Buffer>();
  for (const part of spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const i = part.indexOf(':');
    const id = part.slice(0, i);
    const key = Buffer.from(part.slice(i + 1), 'base64');
    if (i < 1 || !KEY_ID.test(id))
      throw new Error('each keyring entry must be <id>:<base64 key> with an id of letters, digits, _ or -');
    if (key.length !== 32) throw new Error(`key ${id} must be 32 bytes (base64 of 32 random bytes)`);
    keys.set(id, key);
  }
  if (keys.size === 0) throw new Error('the keyring is empty');
  const active = activeKeyId ?? [...keys.keys()].at(-1)!;
  if (!keys.has(active)) throw new Error(`the active key ${active} is not in the keyring`);
  return { keys, activeKeyId: active };
}

/** Embedded mode: a keyring file under DATA_DIR (0600), created on first use. Production passes one from the environment. */
export function loadOrCreateLocalKeyring(dataDir: string): Keyring {
  const file = join(dataDir, 'secrets.keyring');
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, `local1:${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
  }
  chmodSync(file, 0o600);
  return parseKeyring(readFileSync(file, 'utf8').trim());
}

export function createSecretBox(ring: Keyring): SecretBox {
  const box: SecretBox = {
    seal(plaintext, aad) {
      const key = ring.keys.get(ring.activeKeyId)!;
      const iv = randomBytes(12);
      const c = createCipheriv('aes-256-gcm', key, iv, { authTagLength: 16 });
      c.setAAD(Buffer.from(aad, 'utf8'));
      const ct = Buffer.concat([c.update(plaintext, 'utf8'), c.final()]);
      return [
        'v1',
        ring.activeKeyId,
        iv.toString('base64url'),
        c.getAuthTag().toString('base64url'),
        ct.toString('base64url'),
      ].join('.');
    },
    open(sealed, aad) {
      const [v, keyId, iv, tag, ct] = sealed.split('.');
      const key = keyId ? ring.keys.get(keyId) : undefined;
      if (v !== 'v1' || !key || iv === undefined || tag === undefined || ct === undefined)
        throw new Error('sealed secret is malformed or its key is not in the keyring');
      const tagBuf = Buffer.from(tag, 'base64url');
      // Node 20 accepts truncated tags unless the length is pinned (DEP0182): refuse anything but 16 bytes.
      if (tagBuf.length !== 16) throw new Error('sealed secret has a bad tag');
      const d = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'), { authTagLength: 16 });
      d.setAAD(Buffer.from(aad, 'utf8'));
      d.setAuthTag(tagBuf);
      return Buffer.concat([d.update(Buffer.from(ct, 'base64url')), d.final()]).toString('utf8');
    },
    reseal(sealed, aad) {
      return sealed.split('.')[1] === ring.activeKeyId ? sealed : box.seal(box.open(sealed, aad), aad);
    },
  };
  return box;
}

/** For showing a stored secret back: never in full (`••••abcd`). */
export function maskSecret(s: string | null | undefined): string | null {
  if (!s) return null;
  return s.length <= 8 ? '••••' : `••••${s.slice(-4)}`;
}

/**
 * The secret box of a service: SECRETS_KEYRING (and SECRETS_ACTIVE_KEY) from its config, else the
 * local keyring of embedded mode under DATA_DIR. Throws a message naming the variable when invalid.
 */
export function secretBoxFromConfig(c: {
  SECRETS_KEYRING?: string | undefined;
  SECRETS_ACTIVE_KEY?: string | undefined;
  DATA_DIR: string;
}): SecretBox {
  if (!c.SECRETS_KEYRING) return createSecretBox(loadOrCreateLocalKeyring(c.DATA_DIR));
  try {
    return createSecretBox(parseKeyring(c.SECRETS_KEYRING, c.SECRETS_ACTIVE_KEY));
  } catch (e) {
    throw new Error(`SECRETS_KEYRING: ${(e as Error).message}`, { cause: e });
  }
}
