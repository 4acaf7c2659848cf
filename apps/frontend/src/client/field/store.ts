/**
 * What the phone keeps in IndexedDB (through idb): the session of whoever is signed in, and each
 * person's jobs and queue of changes. A phone is shared by a crew: jobs and changes are kept under
 * their owner (tenant id + user id), so the next person never sees them and they are never sent
 * with another person's token; they wait on the phone until their owner signs in again.
 */
import { type DBSchema, type IDBPDatabase, type IDBPTransaction, openDB, type StoreNames } from 'idb';

import type { Job, MeasureCache, PartsCache, QueueItem, Session } from './types.js';

/** Whose data a record is: `<tenant id>:<user id>`. */
export type Owner = string;
export const ownerOf = (s: Session): Owner => `${s.tenant.id}:${s.user.id}`;

type StoredJob = Job & { owner: Owner };

interface FieldDb extends DBSchema {
  /** The session (`session`) and each person's stocked parts (`parts:<owner>`, for parts used offline). */
  kv: { key: string; value: Session | PartsCache };
  jobs: { key: [Owner, string]; value: StoredJob; indexes: { byOwner: Owner } };
  queue: { key: number; value: QueueItem; indexes: { byOwner: Owner; byOwnerJob: [Owner, string] } };
  /** A measure job's windows and the grids (version 3). */
  measure: { key: [Owner, string]; value: MeasureCache };
}

let dbp: Promise<IDBPDatabase<FieldDb>> | undefined;

export function db(): Promise<IDBPDatabase<FieldDb>> {
  return (dbp ??= openDB<FieldDb>('field', 3, {
    async upgrade(d, oldVersion, _newVersion, tx) {
      if (oldVersion < 3) d.createObjectStore('measure', { keyPath: ['owner', 'jobId'] });
      if (oldVersion >= 2) return;
      if (oldVersion < 1) d.createObjectStore('kv');
      // Read before the stores are replaced: idb keeps the upgrade transaction open across these awaits.
      const legacy = oldVersion === 1 ? await readVersion1(tx) : undefined;
      if (oldVersion === 1) {
        d.deleteObjectStore('jobs' as never);
        d.deleteObjectStore('queue' as never);
      }
      d.createObjectStore('jobs', { keyPath: ['owner', 'id'] }).createIndex('byOwner', 'owner');
      const queue = d.createObjectStore('queue', { keyPath: 'seq', autoIncrement: true });
      queue.createIndex('byOwner', 'owner');
      queue.createIndex('byOwnerJob', ['owner', 'jobId']);
      if (legacy) await keepVersion1(tx, legacy);
    },
  }));
}

type UpgradeTx = IDBPTransaction<FieldDb, StoreNames<FieldDb>[], 'versionchange'>;
interface Version1 {
  owner: Owner | undefined;
  jobs: Job[];
  queue: QueueItem[];
}

/**
 * Version 1 kept one unowned list. What it held belongs to whoever was signed in at the upgrade;
 * with nobody signed in, to the job's technician, whose tenant is not known yet: it waits under
 * `legacy:<user id>` until that person signs in (adoptLegacy), never shown to or sent as anyone else.
 */
async function readVersion1(tx: UpgradeTx): Promise<Version1> {
  const old = tx as unknown as IDBPTransaction<unknown, string[], 'versionchange'>;
  const session = (await old.objectStore('kv').get('session')) as Session | undefined;
  const jobs = (await old.objectStore('jobs').getAll()) as Job[];
  const queue = (await old.objectStore('queue').getAll()) as QueueItem[];
  return { owner: session ? ownerOf(session) : undefined, jobs, queue };
}

async function keepVersion1(tx: UpgradeTx, v1: Version1): Promise<void> {
  const ownerOfJob = new Map(v1.jobs.map((j) => [j.id, v1.owner ?? `legacy:${j.technician?.id ?? ''}`]));
  for (const j of v1.jobs) await tx.objectStore('jobs').put({ ...j, owner: ownerOfJob.get(j.id)! });
  for (const q of v1.queue) await tx.objectStore('queue').put({ ...q, owner: ownerOfJob.get(q.jobId) ?? 'legacy:' });
}

/** At sign-in: what version 1 kept for this person without knowing their tenant becomes theirs. */
export async function adoptLegacy(s: Session): Promise<void> {
  const d = await db();
  const legacy = `legacy:${s.user.id}`;
  const tx = d.transaction(['jobs', 'queue'], 'readwrite');
  for (const j of await tx.objectStore('jobs').index('byOwner').getAll(legacy)) {
    await tx.objectStore('jobs').delete([legacy, j.id]);
    await tx.objectStore('jobs').put({ ...j, owner: ownerOf(s) });
  }
  for (const q of await tx.objectStore('queue').index('byOwner').getAll(legacy))
    await tx.objectStore('queue').put({ ...q, owner: ownerOf(s) });
  await tx.done;
}

export const getSession = async () => (await (await db()).get('kv', 'session')) as Session | undefined;
export const setSession = async (s: Session) => void (await (await db()).put('kv', s, 'session'));
export const clearSession = async () => void (await (await db()).delete('kv', 'session'));

export const allJobs = async (owner: Owner): Promise<Job[]> => (await db()).getAllFromIndex('jobs', 'byOwner', owner);
export const getJob = async (owner: Owner, id: string): Promise<Job | undefined> =>
  (await db()).get('jobs', [owner, id]);
export const putJob = async (owner: Owner, j: Job) => void (await (await db()).put('jobs', { ...j, owner }));

/** Replaces the owner's cached jobs with the server's list, except jobs that still have changes waiting. */
export async function replaceJobs(owner: Owner, jobs: Job[]): Promise<void> {
  const d = await db();
  const waiting = new Set((await queued(owner)).map((q) => q.jobId));
  const tx = d.transaction('jobs', 'readwrite');
  for (const old of await tx.store.index('byOwner').getAll(owner))
    if (!waiting.has(old.id)) await tx.store.delete([owner, old.id]);
  for (const j of jobs) if (!waiting.has(j.id)) await tx.store.put({ ...j, owner });
  await tx.done;
}

export const getMeasure = async (owner: Owner, jobId: string): Promise<MeasureCache | undefined> =>
  (await db()).get('measure', [owner, jobId]);
export const putMeasure = async (m: MeasureCache) => void (await (await db()).put('measure', m));

export async function enqueue(item: Omit<QueueItem, 'seq'>): Promise<number> {
  return (await db()).add('queue', item as QueueItem);
}
/** The owner's changes, in the order they were made. */
export const queued = async (owner: Owner) => (await db()).getAllFromIndex('queue', 'byOwner', owner);
export const queuedFor = async (owner: Owner, jobId: string) =>
  (await db()).getAllFromIndex('queue', 'byOwnerJob', [owner, jobId]);
export const updateItem = async (q: QueueItem) => void (await (await db()).put('queue', q));
export const removeItem = async (seq: number) => void (await (await db()).delete('queue', seq));

/** The stocked parts as last fetched (empty without the plan's stock), and what each job recorded as used. */
export const getParts = async (owner: Owner) =>
  (await (await db()).get('kv', `parts:${owner}`)) as PartsCache | undefined;
export const putParts = async (owner: Owner, p: PartsCache) => void (await (await db()).put('kv', p, `parts:${owner}`));
