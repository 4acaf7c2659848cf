/**
 * Thumbnails of a job's photos once they are sent: a short-lived download URL per photo
 * (POST /jobs/{id}/downloads, valid five minutes), kept for four so the frequent re-renders of a
 * sync ask once. Offline, or when a URL cannot be had, the photo is simply not shown (its count is).
 */
import { postJson } from './api.js';
import type { Job } from './types.js';

const KEEP_MS = 4 * 60_000;
const cache = new Map<string, { url: string; until: number }>();

async function urlOf(jobId: string, key: string): Promise<string | undefined> {
  const hit = cache.get(key);
  if (hit && hit.until > Date.now()) return hit.url;
  try {
    const r = await postJson<{ download_url: string }>(`/jobs/${encodeURIComponent(jobId)}/downloads`, { key });
    cache.set(key, { url: r.download_url, until: Date.now() + KEEP_MS });
    return r.download_url;
  } catch {
    return undefined;
  }
}

export async function syncedPhotoUrls(job: Job, online: boolean): Promise<string[]> {
  if (!online) return [];
  const urls = await Promise.all(job.photos.map((p) => urlOf(job.id, p.key)));
  return urls.filter((u): u is string => Boolean(u));
}
