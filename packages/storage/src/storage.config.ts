/**
 * Configuration of an object store, read from a prefix of variables so the photo store (`STORAGE_*`)
 * and the backup target (`BACKUP_*`) are configured the same way but kept apart.
 */
import { join } from 'node:path';

import { type EnvSource, readConfig } from '@platform/kernel';
import { z } from 'zod';

import { createLocalObjectStore } from './local.driver.js';
import { createS3ObjectStore } from './s3/s3.adapter.js';
import type { ObjectStore } from './storage.port.js';

const storeSchema = z
  .object({
    DRIVER: z.enum(['local', 's3'], 'must be local or s3').default('local'),
    DIR: z.string().optional(),
    S3_BUCKET: z
      .string()
      .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be an S3 bucket name')
      .optional(),
    S3_REGION: z.string().default('us-east-1'),
    S3_ENDPOINT: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL of the S3 endpoint' }).optional(),
    S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    S3_FORCE_PATH_STYLE: z.enum(['true', 'false'], 'must be true or false').optional(),
    S3_PREFIX: z
      .string()
      .regex(/^([A-Za-z0-9!_.*'()-]+\/)*$/, 'must be empty or end with /')
      .optional(),
  })
  .superRefine((c, ctx) => {
    if (c.DRIVER !== 's3') return;
    for (const k of ['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const)
      if (!c[k]) ctx.addIssue({ code: 'custom', path: [k], message: 'is required when the driver is s3' });
  });

export type StoreConfig = z.infer<typeof storeSchema>;

/** `prefix` is `STORAGE` or `BACKUP`; `defaultDir` is where the local driver keeps files. */
export function loadStoreConfig(env: EnvSource, prefix: 'STORAGE' | 'BACKUP'): StoreConfig {
  const sub: EnvSource = {};
  for (const [k, v] of Object.entries(env)) if (k.startsWith(`${prefix}_`)) sub[k.slice(prefix.length + 1)] = v;
  try {
    return readConfig(storeSchema, sub);
  } catch (e) {
    // Name the real variable (STORAGE_S3_BUCKET), not the stripped one.
    throw new Error((e as Error).message.replace(/^ {2}(\w+)/gm, `  ${prefix}_$1`), { cause: e });
  }
}

export function openObjectStore(
  c: StoreConfig,
  defaultDir: string,
  opts: { publicUrl?: string; signingKey?: Buffer } = {},
): ObjectStore {
  if (c.DRIVER === 's3')
    return createS3ObjectStore({
      bucket: c.S3_BUCKET!,
      region: c.S3_REGION,
      ...(c.S3_ENDPOINT ? { endpoint: c.S3_ENDPOINT } : {}),
      accessKeyId: c.S3_ACCESS_KEY_ID!,
      secretAccessKey: c.S3_SECRET_ACCESS_KEY!,
      ...(c.S3_FORCE_PATH_STYLE ? { forcePathStyle: c.S3_FORCE_PATH_STYLE === 'true' } : {}),
      ...(c.S3_PREFIX ? { prefix: c.S3_PREFIX } : {}),
    });
  return createLocalObjectStore({ root: c.DIR ?? defaultDir, ...opts });
}

/** The tenants' object store (photos, signatures): `DATA_DIR/objects` unless STORAGE_DRIVER=s3. */
export const objectStoreFromEnv = (env: EnvSource, dataDir: string) =>
  openObjectStore(loadStoreConfig(env, 'STORAGE'), join(dataDir, 'objects'));
