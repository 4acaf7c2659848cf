/**
 * Streaming AES-256-GCM for backup archives, so a database dump of any size is encrypted on its way
 * to the store without being held in memory. Format: `PBK1` · key-id length (1 byte) · key id ·
 * 12-byte IV · ciphertext · 16-byte tag. The key id names the key of the backup keyring that sealed
 * it, so keys can rotate: old archives open with their old key while new ones use the active key.
 * Decryption releases bytes before the tag is checked; restore therefore writes to a temporary file
 * and uses it only after the stream ended without error (tag verified).
 */
import { createCipheriv, createDecipheriv, type DecipherGCM, randomBytes } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';

import type { Keyring } from '@platform/secrets';

const MAGIC = Buffer.from('PBK1');
const TAG = 16;

export function encryptStream(ring: Keyring): Transform {
  const keyId = Buffer.from(ring.activeKeyId);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', ring.keys.get(ring.activeKeyId)!, iv, { authTagLength: TAG });
  let headerSent = false;
  return new Transform({
    transform(chunk: Buffer, _enc, cb) {
      if (!headerSent) {
        this.push(Buffer.concat([MAGIC, Buffer.from([keyId.length]), keyId, iv]));
        headerSent = true;
      }
      cb(null, cipher.update(chunk));
    },
    flush(cb) {
      if (!headerSent) this.push(Buffer.concat([MAGIC, Buffer.from([keyId.length]), keyId, iv]));
      this.push(cipher.final());
      cb(null, cipher.getAuthTag());
    },
  });
}

/** The key id an archive was sealed with (for `backup list`), or null when the header is not ours. */
export function keyIdOf(header: Buffer): string | null {
  if (header.length < 5 || !header.subarray(0, 4).equals(MAGIC)) return null;
  return header.subarray(5, 5 + header[4]!).toString();
}

export function decryptStream(ring: Keyring): Transform {
  let head = Buffer.alloc(0);
  let decipher: DecipherGCM | undefined;
  // The last 16 bytes seen so far may be the tag: hold them back until more arrive or the stream ends.
  let tail = Buffer.alloc(0);
  const feed = (t: Transform, data: Buffer) => {
    const all = Buffer.concat([tail, data]);
    tail = all.subarray(Math.max(0, all.length - TAG));
    const body = all.subarray(0, Math.max(0, all.length - TAG));
    if (body.length) t.push(decipher!.update(body));
  };
  return new Transform({
    transform(chunk: Buffer, _enc, cb: TransformCallback) {
      try {
        if (decipher) return (feed(this, chunk), cb());
        head = Buffer.concat([head, chunk]);
        if (head.length < 5) return cb();
        if (!head.subarray(0, 4).equals(MAGIC)) throw new Error('not an encrypted backup archive (bad header)');
        const idLen = head[4]!;
        if (head.length < 5 + idLen + 12) return cb();
        const keyId = head.subarray(5, 5 + idLen).toString();
        const key = ring.keys.get(keyId);
        if (!key) throw new Error(`the backup was encrypted with key "${keyId}", which is not in BACKUP_KEYRING`);
        decipher = createDecipheriv('aes-256-gcm', key, head.subarray(5 + idLen, 17 + idLen), { authTagLength: TAG });
        const rest = head.subarray(17 + idLen);
        head = Buffer.alloc(0);
        feed(this, rest);
        cb();
      } catch (e) {
        cb(e as Error);
      }
    },
    flush(cb) {
      try {
        if (!decipher || tail.length !== TAG) throw new Error('the backup archive is truncated');
        decipher.setAuthTag(tail);
        cb(null, decipher.final());
      } catch (e) {
        const msg = (e as Error).message.includes('authenticate')
          ? 'the backup archive failed its integrity check (altered or wrong key)'
          : (e as Error).message;
        cb(new Error(msg));
      }
    },
  });
}
