/** A job as the contract's /jobs answers it, as the stand-ins keep it. */
export interface StandinJob {
  id: string;
  name: string;
  customer: { id: string; name: string; phone: string; email: string };
  address: { street: string; city: string; zip: string; state: string; maps_url: string };
  scheduled_start: string | null;
  scheduled_end: string | null;
  stage: { id: number; name: string; key: string };
  technician: { id: string; name: string } | null;
  route_order: number;
  windows: { room: string; product: string; width_in: number; drop_in: number; mount: string; colour: string }[];
  notes: { id: string; body: string; author: { id: string; name: string }; at: string }[];
  checklist: { id: string; label: string; done: boolean }[];
  photos: { key: string; kind: string; at: string }[];
  signature: { key: string; at: string } | null;
  resolution: string | null;
  sale_order_id: number | null;
  version: string;
}
