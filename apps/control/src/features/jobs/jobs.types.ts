/** The shapes of /jobs (control-plane contract: `Job`), shared by the service, the ERP side and the routes. */

export const STAGE_KEYS = ['new', 'scheduled', 'travel', 'on_site', 'done', 'cancelled'] as const;
export type StageKey = (typeof STAGE_KEYS)[number];

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

/** An FSM order as read from the tenant's ERP, in platform terms (ISO instants, stage keys). */
export interface ErpJob {
  erpId: number;
  name: string;
  customer: { id: number; name: string; phone: string | null; email: string | null } | null;
  address: { street: string | null; city: string | null; zip: string | null };
  scheduledStart: string | null;
  scheduledEnd: string | null;
  stage: { id: number; name: string; key: StageKey };
  personId: number | null;
  personName: string | null;
  resolution: string | null;
  saleOrderId: number | null;
  /** The order's ERP write_date as ISO: the job's version (one-second resolution, as Odoo's). */
  version: string;
}

export interface Job {
  id: string;
  name: string;
  customer: { id: number; name: string; phone: string | null; email: string | null } | null;
  address: { street: string | null; city: string | null; zip: string | null; state: string | null; maps_url: string };
  scheduled_start: string | null;
  scheduled_end: string | null;
  stage: { id: number; name: string; key: StageKey };
  technician: { id: string; name: string } | null;
  route_order: number;
  windows: JobWindow[];
  notes: { id: string; body: string; author: { id: string; name: string }; at: string }[];
  checklist: { id: string; label: string; done: boolean }[];
  photos: { key: string; kind: AttachmentKind; at: string }[];
  signature: { key: string; at: string } | null;
  resolution: string | null;
  sale_order_id: number | null;
  version: string;
}
