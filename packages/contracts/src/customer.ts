/**
 * A customer as the control plane's `/customers` answers it: an ERP contact with their leads,
 * quotes, jobs, messages and notes, and the other contacts that look like the same person (same
 * email or phone) offered for merging. Shared by the control plane and the office bundle: types only.
 */
export interface CustomerSummary {
  /** The ERP partner id. */
  id: number;
  name: string;
  email: string | null;
  phone: string | null;
  address: { street: string | null; city: string | null; zip: string | null };
}

export interface CustomerMessage {
  id: number;
  /** Plain text (the ERP keeps HTML). */
  body: string;
  at: string | null;
  author: string | null;
  /** Where it was posted: the customer, or one of their leads. */
  on: 'customer' | 'lead';
  kind: 'note' | 'message';
}

export interface CustomerView extends CustomerSummary {
  leads: { id: number; name: string; type: string; stage: string | null; created: string | null }[];
  /** `quote_id`: the platform quote of this ERP order (its office page), when it was made through the platform. */
  quotes: { sale_order_id: number; quote_id: string | null; name: string; state: string; amount_total: number }[];
  jobs: {
    fsm_order_id: number;
    name: string;
    stage: string | null;
    scheduled_start: string | null;
    technician: string | null;
  }[];
  messages: CustomerMessage[];
  notes: CustomerMessage[];
  /** Other customers with the same email or phone: candidates for `POST /customers/{id}/merge`. */
  duplicates: (CustomerSummary & { matched_on: ('email' | 'phone')[] })[];
}

/** `GET /search?q=`: the office's global search, at most 5 of each kind. */
export interface OfficeSearchResult {
  customers: CustomerSummary[];
  leads: {
    id: number;
    name: string;
    contact_name: string | null;
    email: string | null;
    phone: string | null;
    stage: string | null;
  }[];
  /** `quote_id`: the platform quote (its office page), null for orders made in the ERP. */
  quotes: {
    sale_order_id: number;
    quote_id: string | null;
    name: string;
    customer: string | null;
    state: string;
    amount_total: number;
  }[];
  /** `id`: the platform job, null for orders made in the ERP. */
  jobs: {
    id: string | null;
    fsm_order_id: number;
    name: string;
    customer: string | null;
    stage: string | null;
    scheduled_start: string | null;
  }[];
}
