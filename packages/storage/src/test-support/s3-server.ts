/**
 * A real S3-protocol server on loopback for tests (s3rver: SigV4 signatures checked, multipart,
 * ListObjectsV2, presigned query auth), with a fresh bucket in a temporary directory.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import S3rver from '@20minutes/s3rver';
import type { S3Client } from '@aws-sdk/client-s3';

export interface TestS3 {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  close(): Promise<void>;
}

/**
 * The SDK addresses bucket-level calls (ListObjectsV2) as `/bucket/`; s3rver signs them as `/bucket`
 * and answers SignatureDoesNotMatch. AWS accepts both forms, so tests send the one s3rver checks.
 */
export function adaptClientToS3rver(client: S3Client): void {
  client.middlewareStack.add(
    (next) => async (args) => {
      const req = args.request as { path?: string };
      if (req.path && /^\/[^/]+\/$/.test(req.path)) req.path = req.path.slice(0, -1);
      return next(args);
    },
    { step: 'build', name: 's3rverBucketPath' },
  );
}

export async function startTestS3(buckets: string[] = ['test-bucket']): Promise<TestS3> {
  const directory = mkdtempSync(join(tmpdir(), 's3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: buckets.map((name) => ({ name })),
  });
  const addr = (await server.run()) as { port: number };
  return {
    endpoint: `http://127.0.0.1:${addr.port}`,
    bucket: buckets[0]!,
    // s3rver's built-in account.
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    close: async () => {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
