/**
 * A quote as the control plane's `/sales/quotes` answers it: the platform's record with its window
 * details, and the ERP order's lines and totals. Shared by the control plane (which builds it) and
 * the office's browser bundle (which shows it), so browser-safe: types only.
 */
export interface QuoteLine {
  description: string;
  /** The measured window the line was priced from (a quote made by a measure job's "Send to office"). */
  measurement_id?: string | null;
  product_code: string | null;
  room: string | null;
  width_in: number | null;
  drop_in: number | null;
  mount: string | null;
  colour: string | null;
  options: { code: string; name: string; price: number }[];
  quantity: number;
  unit_price: number;
  subtotal: number;
}

/**
 * Who the quote is for and where the windows are: what the builder was given (from the lead or
 * typed), else the ERP customer's own details. The install job is prefilled from it.
 */
export interface QuoteCustomer {
  name: string;
  email: string | null;
  phone: string | null;
  street: string | null;
  city: string | null;
  zip: string | null;
}

/** The answer of POST /sales/quotes/{id}/send. */
export interface QuoteSendAnswer {
  portal_url: string;
  token: string;
  expires_at: string;
  /** The address the portal link was emailed to; null when the customer has no email address. */
  emailed_to: string | null;
  /** The number it was texted to; null without a customer phone or a tenant SMS line. */
  texted_to: string | null;
  /** True when this was a retry of a send already made (nothing was emailed or texted again). */
  repeated: boolean;
}

export interface QuoteView {
  id: string;
  sale_order_id: number | null;
  name: string | null;
  /** The ERP order's state (draft, sent, sale, done, cancel), or `pending` before the order exists. */
  state: string;
  partner: { id: number; name: string } | null;
  customer: QuoteCustomer | null;
  /** The CRM lead (crm.lead id in the tenant's ERP) the quote was made for, if any. */
  lead_id: number | null;
  lines: QuoteLine[];
  /** The measure job the quote was made from, if any. */
  measure_job_id?: string | null;
  /** Windows measured but not priced (over the product's limits): not on the order; the office resolves them. */
  flagged?: FlaggedQuoteWindow[];
  amount_untaxed: number;
  amount_tax: number;
  amount_total: number;
  deposit: number;
  created_at: string;
}

export interface FlaggedQuoteWindow {
  measurement_id: string;
  room: string;
  product_code: string;
  width_in: number;
  drop_in: number;
  mount: 'inside' | 'outside';
  colour: string;
  options: string[];
  /** Why the grid cannot price it, naming the product's limits. */
  reasons: string[];
}

/**
 * GET /portal/quotes/{token}/invoices: the invoices of the order the quote became (a draft's number
 * is "Draft"); each downloads at /portal/quotes/{token}/invoices/{id}/pdf. Amounts in major units.
 */
export interface PortalInvoicesAnswer {
  invoices: { id: number; number: string; state: string; amount_total: number; amount_due: number }[];
}

/**
 * The deposit on the portal: `none` (the tenant asks none), `due` (pay it by card: POST
 * /portal/quotes/{token}/deposit-checkout once accepted), `office` (no card payments: the office
 * arranges it), `paid`.
 */
export type DepositState = 'none' | 'due' | 'paid' | 'office';

/** POST /portal/quotes/{token}/deposit-checkout: the provider's hosted page to send the customer to. */
export interface DepositCheckoutAnswer {
  url: string;
  session_id: string;
}

/** GET /portal/quotes/{token}: the quote as its customer sees it through a portal link. */
export interface PortalQuoteAnswer {
  quote: {
    name: string | null;
    /** The ERP order's state; `sale` or `done` once confirmed (accepted with a card deposit due: once it is paid). */
    state: string;
    partner_name: string | null;
    lines: QuoteLine[];
    amount_untaxed: number;
    amount_tax: number;
    amount_total: number;
    deposit: number;
    deposit_state: DepositState;
    /** Who accepted and when (the name typed when signing; null on acceptances made before names were kept). */
    accepted: { name: string | null; at: string } | null;
  };
  link: { expires_at: string; actions: string[] };
  /** The tenant's public branding (name, colours, contact), as tenant settings keep it. */
  tenant: { branding: object };
}
