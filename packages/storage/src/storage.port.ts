/**
 * The object-storage port: photos, signatures and other blobs of every tenant, and (a second,
 * separate store) the backup archives. Keys are `/`-separated paths; callers put a tenant prefix first
 * (`<tenantId>/photos/<id>.jpg`). Two drivers: local files under DATA_DIR (embedded default) and any
 * S3-API store (s3/s3.adapter.ts).
 */
import type { Readable } from 'node:stream';

export interface StoredObject {
  key: string;
  size: number;
}

export interface PresignOptions {
  /** `get` to download, `put` to upload; default `get`. */
  method?: 'get' | 'put';
  /** Seconds the URL stays valid; default 900. */
  expiresIn?: number;
}

export interface ObjectStore {
  /** Stores the body under `key`, replacing any previous object. A stream is uploaded without buffering it whole. */
  put(key: string, body: Buffer | Uint8Array | string | Readable, opts?: { contentType?: string }): Promise<void>;
  /** The object's bytes as a stream; throws an `ObjectNotFoundError` when there is none. */
  get(key: string): Promise<Readable>;
  /** Every object whose key starts with `prefix`, in key order. */
  list(prefix?: string): Promise<StoredObject[]>;
  /** Idempotent: deleting a missing key is not an error. */
  delete(key: string): Promise<void>;
  /** A URL that lets a browser download (or upload) this one object until it expires, without our credentials. */
  presign(key: string, opts?: PresignOptions): Promise<string>;
}

export class ObjectNotFoundError extends Error {
  readonly code = 'OBJECT_NOT_FOUND';
  constructor(readonly key: string) {
    super(`no stored object ${key}`);
    this.name = 'ObjectNotFoundError';
  }
}

const KEY = /^[A-Za-z0-9!_.*'()-]+(\/[A-Za-z0-9!_.*'()-]+)*$/;

/** Keys are S3's "safe characters" only, no empty or `.`/`..` segments (so the local driver stays inside its root). */
export function assertValidKey(key: string): void {
  if (key.length > 1024 || !KEY.test(key) || key.split('/').some((s) => s === '.' || s === '..'))
    throw new Error(
      `invalid object key ${JSON.stringify(key)}: use letters, digits and !_.*'()- in /-separated segments`,
    );
}

export async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(c as Uint8Array));
  return Buffer.concat(chunks);
}
