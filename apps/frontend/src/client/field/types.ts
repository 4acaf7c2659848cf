/** What the phone keeps beside the control plane's Job (declared once in @platform/contracts). */
import type { Job } from '@platform/contracts/job.js';
import type { MeasurementInput, MeasurementsAnswer } from '@platform/contracts/measurement.js';

export type { Job, StageKey } from '@platform/contracts/job.js';

export interface Session {
  access_token: string;
  refresh_token: string;
  /** Epoch ms when the access token stops working. */
  expires_at: number;
  user: { id: string; email: string; name?: string; role: string };
  tenant: { id: string; slug: string; name: string };
}

export type UploadKind = 'photo_before' | 'photo_after' | 'signature';

export type Change =
  | { kind: 'note'; body: string }
  | { kind: 'checklist'; itemId: string | number; done: boolean }
  | { kind: 'stage'; stage: 'travel' | 'on_site'; etaMinutes?: number }
  | { kind: 'complete'; resolution: string }
  | { kind: 'upload'; uploadKind: UploadKind; blob: Blob; contentType: string; measurementId?: string }
  // A measure job's windows (PUT / DELETE by the phone's id) and "Send to office".
  | { kind: 'measure'; id: string; m: MeasurementInput }
  | { kind: 'measure-remove'; id: string }
  | { kind: 'measure-send' }
  // An install job's parts used (POST /jobs/{id}/parts-used), consumed from stock once.
  | { kind: 'parts-used'; parts: PartUsedLine[] };

export interface PartUsedLine {
  part_id: number;
  qty: number;
  name: string;
}

/** The stocked parts to pick from offline, and per job the parts the control plane recorded. */
export interface PartsCache {
  parts: { id: number; name: string }[];
  recorded: Record<string, PartUsedLine[]>;
}

/** A measure job's windows as last fetched, with the grids to price new ones offline. */
export type MeasureCache = MeasurementsAnswer & { owner: string; jobId: string };

export interface QueueItem {
  seq?: number;
  /** Who made the change (store.ts ownerOf): only ever sent with that person's session. */
  owner: string;
  jobId: string;
  change: Change;
  /** Sent as Idempotency-Key (derived keys for each step of an upload). */
  key: string;
  createdAt: number;
  state: 'pending' | 'conflict' | 'failed';
  attempts: number;
  error?: string;
  /** Upload progress survives a restart: the presigned target once asked for, then whether the PUT went. */
  upload?: { key: string; url: string; expiresAt?: string; put?: boolean; round: number };
  /** The job as the office left it, when the control plane answered 409 JOB_CONFLICT. */
  current?: Job;
}
