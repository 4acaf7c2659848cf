/**
 * Sends the queue of changes in the order they were made, one at a time, each with its own
 * Idempotency-Key (a resend after a lost answer is applied once). Stage moves and completion carry
 * If-Match with the job's version: a 409 JOB_CONFLICT parks the change, keeps what the office did,
 * and holds back that job's later changes until the technician decides. Offline or a 5xx stops the
 * run; the next 'online' event, app start or timer starts it again. Only the signed-in person's
 * changes are sent, each call only with their session (a shared phone keeps the others' for them).
 */
import type { Measurement } from '@platform/contracts/measurement.js';

import { ApiError, call, OfflineError, postJson, SignedOutError } from './api.js';
import { sendPartsUsed } from './parts-used.js';
import {
  getJob,
  getMeasure,
  getSession,
  type Owner,
  ownerOf,
  putJob,
  putMeasure,
  queued,
  removeItem,
  updateItem,
} from './store.js';
import type { Job, QueueItem } from './types.js';

export type SyncOutcome = 'idle' | 'offline' | 'signed-out';

let running: Promise<SyncOutcome> | undefined;
const listeners = new Set<() => void>();
export const onSyncChange = (fn: () => void) => listeners.add(fn);
const changed = () => listeners.forEach((fn) => fn());

const currentOwner = async () => {
  const s = await getSession();
  return s ? ownerOf(s) : undefined;
};

/**
 * One run at a time in this tab; Web Locks keep two tabs from sending the same change together.
 * A run that finds another person signed in by its end runs again for them.
 */
export function syncNow(): Promise<SyncOutcome> {
  return (running ??= (async () => {
    try {
      const locks = (navigator as Navigator & { locks?: LockManager }).locks;
      for (;;) {
        const owner = await currentOwner();
        if (!owner) return 'signed-out';
        const outcome = locks ? await locks.request('field-sync', () => drain(owner)) : await drain(owner);
        const now = await currentOwner();
        if (now === undefined || now === owner) return outcome;
      }
    } finally {
      running = undefined;
    }
  })());
}

async function drain(owner: Owner): Promise<SyncOutcome> {
  const blocked = new Set<string>();
  for (const item of await queued(owner)) {
    if (item.state !== 'pending' || blocked.has(item.jobId)) {
      blocked.add(item.jobId);
      continue;
    }
    try {
      const job = await send(item, owner);
      await removeItem(item.seq!);
      if (job) await adopt(owner, job);
    } catch (e) {
      if (e instanceof OfflineError) return 'offline';
      if (e instanceof SignedOutError) return 'signed-out';
      blocked.add(item.jobId);
      await park(item, e);
    }
    changed();
  }
  return 'idle';
}

async function park(item: QueueItem, e: unknown): Promise<void> {
  if (e instanceof ApiError && e.problem.code === 'JOB_CONFLICT') {
    item.state = 'conflict';
    item.current = e.problem.current as Job | undefined;
    item.error = 'The office changed this job while you were working on it.';
  } else {
    item.state = 'failed';
    item.error = e instanceof ApiError ? (e.problem.detail ?? `Refused (HTTP ${e.status})`) : String(e);
  }
  item.attempts += 1;
  await updateItem(item);
}

/** The answer to our own write is the job's new version: later changes build on it. */
async function adopt(owner: Owner, answer: Partial<Job>): Promise<void> {
  if (!answer.id || typeof answer.version !== 'string') return;
  const local = await getJob(owner, String(answer.id));
  if (!local) return;
  await putJob(owner, { ...local, ...answer, id: local.id } as Job);
}

async function ifMatch(owner: Owner, jobId: string): Promise<Record<string, string>> {
  const j = await getJob(owner, jobId);
  return j?.version ? { 'if-match': j.version } : {};
}

async function send(item: QueueItem, owner: Owner): Promise<Partial<Job> | undefined> {
  const id = encodeURIComponent(item.jobId);
  const idem = (suffix = '') => ({ 'idempotency-key': `${item.key}${suffix}` });
  const c = item.change;
  switch (c.kind) {
    case 'note':
      return postJson(`/jobs/${id}/notes`, { body: c.body }, idem(), owner);
    case 'checklist':
      return call(`/jobs/${id}/checklist/${encodeURIComponent(String(c.itemId))}`, {
        method: 'PATCH',
        owner,
        headers: { 'content-type': 'application/json', ...idem() },
        body: JSON.stringify({ done: c.done }),
      });
    case 'stage':
      return postJson(
        `/jobs/${id}/stage`,
        { stage: c.stage, ...(c.etaMinutes ? { eta_minutes: c.etaMinutes } : {}) },
        { ...idem(), ...(await ifMatch(owner, item.jobId)) },
        owner,
      );
    case 'complete':
      return postJson(
        `/jobs/${id}/complete`,
        { resolution: c.resolution },
        { ...idem(), ...(await ifMatch(owner, item.jobId)) },
        owner,
      );
    case 'upload':
      return upload(item, c, owner);
    case 'measure': {
      const m = await call<Measurement>(`/jobs/${id}/measurements/${encodeURIComponent(c.id)}`, {
        method: 'PUT',
        owner,
        headers: { 'content-type': 'application/json', ...idem() },
        body: JSON.stringify(c.m),
      });
      // The server's window (its price, its flags) replaces the phone's in what the phone keeps.
      await keepMeasured(owner, item.jobId, (items) => [...items.filter((x) => x.id !== m.id), m]);
      return undefined;
    }
    case 'measure-remove':
      await call(`/jobs/${id}/measurements/${encodeURIComponent(c.id)}`, { method: 'DELETE', owner, headers: idem() });
      await keepMeasured(owner, item.jobId, (items) => items.filter((x) => x.id !== c.id));
      return undefined;
    case 'parts-used':
      await sendPartsUsed(owner, item.jobId, c.parts, item.key);
      return undefined;
    case 'measure-send': {
      const a = await postJson<{ quote_id: string }>(`/jobs/${id}/measurements/quote`, {}, idem(), owner);
      const cached = await getMeasure(owner, item.jobId);
      if (cached) await putMeasure({ ...cached, quote_id: a.quote_id });
      return undefined;
    }
  }
}

async function keepMeasured(owner: Owner, jobId: string, fn: (items: Measurement[]) => Measurement[]) {
  const cached = await getMeasure(owner, jobId);
  if (cached) await putMeasure({ ...cached, items: fn(cached.items).sort((a, b) => a.position - b.position) });
}

type UploadChange = Extract<QueueItem['change'], { kind: 'upload' }>;

/** Ask for a presigned target, PUT the bytes, attach the key; each step is remembered. */
async function upload(item: QueueItem, c: UploadChange, owner: Owner): Promise<Partial<Job> | undefined> {
  const id = encodeURIComponent(item.jobId);
  const expired = item.upload?.expiresAt && Date.parse(item.upload.expiresAt) < Date.now() + 10_000;
  if (!item.upload || (!item.upload.put && expired)) {
    const round = (item.upload?.round ?? 0) + 1;
    const t = await postJson<{ key: string; upload_url: string; expires_at?: string }>(
      `/jobs/${id}/uploads`,
      { kind: c.uploadKind, content_type: c.contentType, bytes: c.blob.size },
      { 'idempotency-key': `${item.key}:upload:${round}` },
      owner,
    );
    item.upload = { key: t.key, url: t.upload_url, ...(t.expires_at ? { expiresAt: t.expires_at } : {}), round };
    await updateItem(item);
  }
  if (!item.upload.put) {
    let r: Response;
    try {
      r = await fetch(item.upload.url, { method: 'PUT', headers: { 'content-type': c.contentType }, body: c.blob });
    } catch {
      throw new OfflineError('offline');
    }
    if (r.status === 403 || r.status === 400) {
      // The presigned URL ran out: ask for a new one next time round.
      item.upload.expiresAt = new Date(0).toISOString();
      await updateItem(item);
      throw new OfflineError('upload link expired');
    }
    if (!r.ok) throw new OfflineError(`upload HTTP ${r.status}`);
    item.upload.put = true;
    await updateItem(item);
  }
  return postJson(
    `/jobs/${id}/attachments`,
    { key: item.upload.key, kind: c.uploadKind, ...(c.measurementId ? { measurement_id: c.measurementId } : {}) },
    { 'idempotency-key': `${item.key}:attach` },
    owner,
  );
}

/** The technician's answer to a conflict: drop the change, or send it again on top of the office's version. */
export async function resolveConflict(item: QueueItem, how: 'discard' | 'resend'): Promise<void> {
  if (how === 'discard') {
    await removeItem(item.seq!);
    if (item.current) await putJob(item.owner, item.current);
  } else {
    if (item.current) await putJob(item.owner, item.current);
    await updateItem({
      ...item,
      state: 'pending',
      error: undefined,
      current: undefined,
      key: `${item.key}:r${item.attempts}`,
    });
  }
  changed();
}
