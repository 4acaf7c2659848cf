/** The control plane's Job (docs/control-plane contract) and what the phone keeps beside it. */
export type StageKey = 'new' | 'scheduled' | 'travel' | 'on_site' | 'done' | 'cancelled';

export interface Job {
  id: string;
  name: string;
  /** Null when the ERP order has no customer (made in the ERP by hand). */
  customer: { id?: string | number; name: string; phone?: string | null; email?: string | null } | null;
  address: {
    street?: string | null;
    city?: string | null;
    zip?: string | null;
    state?: string | null;
    maps_url?: string;
  };
  scheduled_start: string | null;
  scheduled_end: string | null;
  stage: { id?: number | string; name: string; key: StageKey };
  technician: { id: string; name: string } | null;
  route_order: number;
  windows: { room?: string; product?: string; width_in?: number; drop_in?: number; mount?: string; colour?: string }[];
  notes: { id: string | number; body: string; author?: { id: string; name: string }; at?: string }[];
  checklist: { id: string | number; label: string; done: boolean }[];
  photos: { key: string; kind: string; at?: string }[];
  signature: { key: string; at?: string } | null;
  resolution: string | null;
  version: string;
}

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
  | { kind: 'stage'; stage: 'travel' | 'on_site' }
  | { kind: 'complete'; resolution: string }
  | { kind: 'upload'; uploadKind: UploadKind; blob: Blob; contentType: string };

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
