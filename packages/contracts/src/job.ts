/**
 * A job as the control plane's /jobs answers it (docs/control-plane.md, `Job`): the office, the
 * dispatch board and the field app read this one declaration. Browser-safe (types and constants only).
 */
export const STAGE_KEYS = ['new', 'scheduled', 'travel', 'on_site', 'done', 'cancelled'] as const;
export type StageKey = (typeof STAGE_KEYS)[number];
/** The arrival estimates a technician picks with "On my way" (minutes): the customer is texted it. */
export const ETA_MINUTES = [10, 20, 30, 45, 60] as const;

/** What the visit is for: measuring the windows, fitting the blinds (the default), or a repair / re-fit. */
export const JOB_KINDS = ['measure', 'install', 'service'] as const;
export type JobKind = (typeof JOB_KINDS)[number];
export const JOB_KIND_NAMES: Record<JobKind, string> = {
  measure: 'Measure',
  install: 'Install',
  service: 'Service',
};

export const ATTACHMENT_KINDS = ['photo_before', 'photo_after', 'signature'] as const;
export type AttachmentKind = (typeof ATTACHMENT_KINDS)[number];

export interface JobWindow {
  room: string;
  product: string;
  width_in: number;
  drop_in: number;
  mount: 'inside' | 'outside';
  colour: string;
}

/**
 * Who the job is for (the ERP partner at the job's location). A row of the list (GET /jobs) carries
 * what the screens show of it, name and phone, from one ERP call; the partner's `id` and `email` come
 * with one job (GET /jobs/{id} and the replies of the job's commands).
 */
export interface JobCustomer {
  id?: number;
  name: string;
  phone: string | null;
  email?: string | null;
}

export interface Job {
  id: string;
  name: string;
  kind: JobKind;
  /** A measure job's draft quote (made by "Send to office"), else null. */
  quote_id: string | null;
  customer: JobCustomer | null;
  address: { street: string | null; city: string | null; zip: string | null; state: string | null; maps_url: string };
  scheduled_start: string | null;
  scheduled_end: string | null;
  stage: { id: number; name: string; key: StageKey };
  technician: { id: string; name: string } | null;
  route_order: number;
  windows: JobWindow[];
  notes: { id: string; body: string; author: { id: string; name: string }; at: string }[];
  checklist: { id: string; label: string; done: boolean }[];
  /** `measurement_id`: the measured window the photo was taken of (a measure job's), else null. */
  photos: { key: string; kind: AttachmentKind; at: string; measurement_id?: string | null }[];
  signature: { key: string; at: string } | null;
  resolution: string | null;
  sale_order_id: number | null;
  /** An install job whose sale order's supplier orders have all been received (lists only). */
  ready_to_fit?: boolean;
  version: string;
}

/** Done and cancelled are final: nothing more happens to the job. */
export const isOpenStage = (k: string): boolean => k !== 'done' && k !== 'cancelled';
