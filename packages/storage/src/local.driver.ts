/**
 * Embedded default: objects as files under `<root>` (DATA_DIR/objects). Writes go to a temporary file
 * then rename, so a crash never leaves half an object under its key. Presigned URLs are HMAC-signed
 * paths of `publicUrl` that the serving host checks with `verifyPresigned`.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

import { assertValidKey, ObjectNotFoundError, type ObjectStore, type StoredObject } from './storage.port.js';

export interface LocalStoreOptions {
  root: string;
  /**
   * Base URL of the route that serves presigned objects, e.g. `http://localhost:8001/objects`; a function
   * when the serving host learns its address only once it listens (port 0).
   */
  publicUrl?: string | (() => string);
  /** HMAC key for presigned URLs (32+ random bytes); a per-process random one when absent. */
  signingKey?: Buffer;
}

export function createLocalObjectStore(
  opts: LocalStoreOptions,
): ObjectStore & { verifyPresigned(url: URL): string | null } {
  const signingKey = opts.signingKey ?? randomBytes(32);
  const publicUrl = () =>
    (typeof opts.publicUrl === 'function' ? opts.publicUrl() : opts.publicUrl) ?? 'http://localhost/objects';
  const pathOf = (key: string) => {
    assertValidKey(key);
    return join(opts.root, ...key.split('/'));
  };
  const sign = (key: string, method: string, expires: number) =>
    createHmac('sha256', signingKey).update(`${method}\n${key}\n${expires}`).digest('base64url');
  return {
    async put(key, body, o) {
      void o;
      const file = pathOf(key);
      // Customers' photos and signatures: owner-only, whatever the umask (docs/deployment.md "Files").
      await mkdir(dirname(file), { recursive: true, mode: 0o700 });
      const tmp = `${file}.${randomBytes(6).toString('hex')}.partial`;
      const source = typeof body === 'string' || body instanceof Uint8Array ? Readable.from([Buffer.from(body)]) : body;
      try {
        await pipeline(source, createWriteStream(tmp, { mode: 0o600 }));
        await rename(tmp, file);
      } catch (e) {
        await rm(tmp, { force: true });
        throw e;
      }
    },
    async get(key) {
      const file = pathOf(key);
      const s = await stat(file).catch(() => null);
      if (!s?.isFile()) throw new ObjectNotFoundError(key);
      return createReadStream(file);
    },
    async list(prefix = '') {
      const out: StoredObject[] = [];
      const walk = async (dir: string): Promise<void> => {
        const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
        for (const e of entries) {
          const full = join(dir, e.name);
          if (e.isDirectory()) await walk(full);
          else if (e.isFile() && !e.name.endsWith('.partial')) {
            const key = relative(opts.root, full).split(sep).join('/');
            if (key.startsWith(prefix)) out.push({ key, size: (await stat(full)).size });
          }
        }
      };
      await walk(opts.root);
      return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
    async presign(key, o = {}) {
      assertValidKey(key);
      const method = o.method ?? 'get';
      const expires = Math.floor(Date.now() / 1000) + (o.expiresIn ?? 900);
      const base = publicUrl().replace(/\/$/, '');
      return `${base}/${key}?method=${method}&expires=${expires}&sig=${sign(key, method, expires)}`;
    },
    /** The key a presigned URL grants, or null when it is forged, altered or expired. */
    verifyPresigned(url: URL) {
      const base = new URL(publicUrl()).pathname.replace(/\/$/, '');
      if (!url.pathname.startsWith(`${base}/`)) return null;
      const key = decodeURIComponent(url.pathname.slice(base.length + 1));
      const method = url.searchParams.get('method') ?? '';
      const expires = Number(url.searchParams.get('expires'));
      const sig = Buffer.from(url.searchParams.get('sig') ?? '');
      const want = Buffer.from(sign(key, method, expires));
      if (
        !Number.isFinite(expires) ||
        expires < Date.now() / 1000 ||
        sig.length !== want.length ||
        !timingSafeEqual(sig, want)
      )
        return null;
      return key;
    },
  };
}
