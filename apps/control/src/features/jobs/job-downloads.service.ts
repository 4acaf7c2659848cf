/**
 * Short-lived download URLs of a job's photos and signature. Whoever may read the job may read its
 * files: office, admin and owner any job of their tenant, a technician only the jobs assigned to them
 * (the job is looked up first, so another tenant's job, or another technician's, is the same 404).
 * The key must be one of the job's registered photos or its signature. The URL is presigned for GET
 * (the embedded store's `/objects/...`, or the bucket with S3) and works DOWNLOAD_URL_SECONDS.
 */
import { AppError, type Clock } from '@platform/kernel';
import type { ObjectStore } from '@platform/storage';

import type { Principal } from '../auth/principal.js';
import type { JobsReader } from './jobs.service.js';

export const DOWNLOAD_URL_SECONDS = 300;

export interface DownloadUrl {
  download_url: string;
  expires_at: string;
  kind: string;
}

export class JobDownloads {
  constructor(
    private readonly deps: { objects: ObjectStore; clock: Clock },
    private readonly reader: JobsReader,
  ) {}

  async url(p: Principal, jobId: string, key: string): Promise<DownloadUrl> {
    const job = await this.reader.get(p, jobId);
    const files = [
      ...job.photos.map((f) => ({ key: f.key, kind: f.kind })),
      ...(job.signature ? [{ key: job.signature.key, kind: 'signature' }] : []),
    ];
    const file = files.find((f) => f.key === key);
    if (!file)
      throw new AppError('VALIDATION_FAILED', 'This is not a photo or signature of this job.', {
        fieldIssues: [
          { field: 'key', rule: 'not_this_job', message: "must be one of the job's photos or its signature" },
        ],
      });
    const url = await this.deps.objects.presign(key, { method: 'get', expiresIn: DOWNLOAD_URL_SECONDS });
    const expiresAt = new Date(this.deps.clock.now().getTime() + DOWNLOAD_URL_SECONDS * 1000);
    return { download_url: url, expires_at: expiresAt.toISOString(), kind: file.kind };
  }
}
