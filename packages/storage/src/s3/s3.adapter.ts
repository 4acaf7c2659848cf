/**
 * The object-storage port over the S3 API (AWS S3, MinIO, Ceph, R2, …) with the AWS SDK v3. Streams
 * go up as multipart uploads (lib-storage), so a large backup archive is never held in memory.
 */
import { Readable } from 'node:stream';

import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';

import { assertValidKey, ObjectNotFoundError, type ObjectStore, type StoredObject } from '../storage.port.js';

export interface S3StoreOptions {
  bucket: string;
  region: string;
  /** For S3-compatible stores other than AWS (MinIO, Ceph, a loopback test server). */
  endpoint?: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** `https://host/bucket/key` instead of `https://bucket.host/key` (most self-hosted stores). */
  forcePathStyle?: boolean;
  /** Key prefix inside the bucket, e.g. `objects/`. */
  prefix?: string;
}

export function createS3ObjectStore(o: S3StoreOptions): ObjectStore & { client: S3Client } {
  const client = new S3Client({
    region: o.region,
    ...(o.endpoint ? { endpoint: o.endpoint } : {}),
    forcePathStyle: o.forcePathStyle ?? Boolean(o.endpoint),
    credentials: { accessKeyId: o.accessKeyId, secretAccessKey: o.secretAccessKey },
  });
  const prefix = o.prefix ?? '';
  const full = (key: string) => {
    assertValidKey(key);
    return prefix + key;
  };
  return {
    client,
    async put(key, body, opts = {}) {
      if (body instanceof Readable) {
        await new Upload({
          client,
          params: { Bucket: o.bucket, Key: full(key), Body: body, ContentType: opts.contentType },
        }).done();
        return;
      }
      const bytes = typeof body === 'string' ? Buffer.from(body) : body;
      await client.send(
        new PutObjectCommand({ Bucket: o.bucket, Key: full(key), Body: bytes, ContentType: opts.contentType }),
      );
    },
    async get(key) {
      try {
        const r = await client.send(new GetObjectCommand({ Bucket: o.bucket, Key: full(key) }));
        return r.Body as Readable;
      } catch (e) {
        if (e instanceof NoSuchKey || (e as { name?: string }).name === 'NoSuchKey') throw new ObjectNotFoundError(key);
        throw e;
      }
    },
    async list(p = '') {
      const out: StoredObject[] = [];
      let token: string | undefined;
      do {
        const r = await client.send(
          new ListObjectsV2Command({ Bucket: o.bucket, Prefix: prefix + p, ContinuationToken: token }),
        );
        for (const c of r.Contents ?? []) if (c.Key) out.push({ key: c.Key.slice(prefix.length), size: c.Size ?? 0 });
        token = r.IsTruncated ? r.NextContinuationToken : undefined;
      } while (token);
      return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket: o.bucket, Key: full(key) }));
    },
    async presign(key, opts = {}) {
      const Key = full(key);
      const cmd =
        opts.method === 'put'
          ? new PutObjectCommand({ Bucket: o.bucket, Key })
          : new GetObjectCommand({ Bucket: o.bucket, Key });
      return getSignedUrl(client, cmd, { expiresIn: opts.expiresIn ?? 900 });
    },
  };
}
