/** What the phone keeps in IndexedDB (through idb): the session, my jobs, and the queue of changes. */
import { type DBSchema, type IDBPDatabase, openDB } from 'idb';

import type { Job, QueueItem, Session } from './types.js';

interface FieldDb extends DBSchema {
  kv: { key: string; value: Session };
  jobs: { key: string; value: Job };
  queue: { key: number; value: QueueItem; indexes: { byJob: string } };
}

let dbp: Promise<IDBPDatabase<FieldDb>> | undefined;

export function db(): Promise<IDBPDatabase<FieldDb>> {
  return (dbp ??= openDB<FieldDb>('field', 1, {
    upgrade(d) {
      d.createObjectStore('kv');
      d.createObjectStore('jobs', { keyPath: 'id' });
      d.createObjectStore('queue', { keyPath: 'seq', autoIncrement: true }).createIndex('byJob', 'jobId');
    },
  }));
}

export const getSession = async () => (await db()).get('kv', 'session');
export const setSession = async (s: Session) => void (await (await db()).put('kv', s, 'session'));
export const clearSession = async () => void (await (await db()).delete('kv', 'session'));

export const allJobs = async () => (await db()).getAll('jobs');
export const getJob = async (id: string) => (await db()).get('jobs', id);
export const putJob = async (j: Job) => void (await (await db()).put('jobs', j));

/** Replaces my cached jobs with the server's list, except jobs that still have changes waiting. */
export async function replaceJobs(jobs: Job[]): Promise<void> {
  const d = await db();
  const waiting = new Set((await d.getAll('queue')).map((q) => q.jobId));
  const tx = d.transaction('jobs', 'readwrite');
  for (const old of await tx.store.getAll()) if (!waiting.has(old.id)) await tx.store.delete(old.id);
  for (const j of jobs) if (!waiting.has(j.id)) await tx.store.put(j);
  await tx.done;
}

export async function enqueue(item: Omit<QueueItem, 'seq'>): Promise<number> {
  return (await db()).add('queue', item as QueueItem);
}
export const queued = async () => (await db()).getAll('queue');
export const queuedFor = async (jobId: string) => (await db()).getAllFromIndex('queue', 'byJob', jobId);
export const updateItem = async (q: QueueItem) => void (await (await db()).put('queue', q));
export const removeItem = async (seq: number) => void (await (await db()).delete('queue', seq));
