/**
 * The tenants' object store as /jobs uses it. With S3 (STORAGE_DRIVER=s3) presigned URLs go straight
 * to the bucket. With the embedded default (files under DATA_DIR/objects) the control plane itself
 * serves the presigned URLs at `<CONTROL_PUBLIC_URL>/objects/...` (objects.routes.ts), signed with a
 * key kept in DATA_DIR/objects-signing-key so every process of the install accepts the same URLs.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { createLocalObjectStore, type ObjectStore, openObjectStore, type StoreConfig } from '@platform/storage';

export interface EmbeddedObjects {
  store: ObjectStore;
  /** The key a presigned URL grants (for the method it was signed for), or null. */
  verifyPresigned(url: URL): string | null;
  /**
   * The control plane's own address once it listens: the origin of presigned URLs when
   * CONTROL_PUBLIC_URL is unset (with CONTROL_PORT=0 the port is known only then). It is the address
   * `npm start` gives the frontend as CONTROL_URL, so the frontend routes those URLs through itself.
   */
  listeningOn(url: string): void;
}

function signingKey(dataDir: string): Buffer {
  const file = join(dataDir, 'objects-signing-key');
  try {
    if (existsSync(file)) return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64url');
    mkdirSync(dataDir, { recursive: true });
    const key = randomBytes(32);
    // 'wx': two processes starting at once must not each write their own key.
    writeFileSync(file, key.toString('base64url'), { mode: 0o600, flag: 'wx' });
    return key;
  } catch {
    if (existsSync(file)) return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64url');
    // No writable DATA_DIR (tests): URLs this process signs are still checked by this process.
    return randomBytes(32);
  }
}

export function openJobObjects(
  config: { DATA_DIR: string; CONTROL_PORT: number; CONTROL_PUBLIC_URL?: string | undefined },
  storage: StoreConfig,
): { objects: ObjectStore; embedded?: EmbeddedObjects } {
  if (storage.DRIVER === 's3') return { objects: openObjectStore(storage, join(config.DATA_DIR, 'objects')) };
  let origin = config.CONTROL_PUBLIC_URL ?? `http://localhost:${config.CONTROL_PORT}`;
  const store = createLocalObjectStore({
    root: storage.DIR ?? join(config.DATA_DIR, 'objects'),
    publicUrl: () => `${origin.replace(/\/$/, '')}/objects`,
    signingKey: signingKey(config.DATA_DIR),
  });
  const listeningOn = (url: string) => {
    if (!config.CONTROL_PUBLIC_URL) origin = url;
  };
  return { objects: store, embedded: { store, verifyPresigned: (u) => store.verifyPresigned(u), listeningOn } };
}
