/**
 * Wire shapes of the final invoice (docs/payments.md, "Final invoice"), shared by the control plane,
 * the office screens and the portal's pay page. Amounts are integer minor units of `currency`.
 * Browser-safe (types and constants only).
 */

export const INVOICE_LIST_STATES = ['open', 'overdue', 'paid'] as const;
export type InvoiceListState = (typeof INVOICE_LIST_STATES)[number];

export const OFFICE_PAYMENT_METHODS = ['cash', 'check', 'bank'] as const;
export type OfficePaymentMethod = (typeof OFFICE_PAYMENT_METHODS)[number];

/** One posted customer invoice as the office lists it. */
export interface InvoiceSummary {
  id: number;
  number: string;
  customer: { id: number | null; name: string };
  invoice_date: string | null;
  due_date: string | null;
  currency: string;
  total_minor: number;
  residual_minor: number;
  /** `paid` when nothing is left; `overdue` when something is left after the due date. */
  state: InvoiceListState;
  sale_order: string | null;
}

/** A payment on an invoice as `GET /invoices/{id}` lists it (ERP `account.payment`). */
export interface InvoicePaymentView {
  id: number;
  date: string | null;
  amount_minor: number;
  memo: string;
  /** Taken by card through the pay link: an owner or admin may refund it (`POST /payments/{id}/refund`). */
  card: boolean;
  /** What is left to refund of a card payment (its amount less the credit notes refunding it); 0 for others. */
  refundable_minor: number;
}

/** `GET /invoices/{id}`: the invoice and the payments registered on it. */
export interface InvoiceDetail extends InvoiceSummary {
  payments: InvoicePaymentView[];
}

export interface InvoiceListAnswer {
  state: InvoiceListState;
  items: InvoiceSummary[];
  /** What each customer still owes across the listed invoices (open and overdue: the residuals). */
  balances: { customer: { id: number | null; name: string }; residual_minor: number; currency: string }[];
}

/** `POST /jobs/{id}/invoice`: the job's final invoice, posted in the ERP. */
export interface JobInvoiceAnswer {
  job_id: string;
  invoice: InvoiceSummary;
}

export interface InvoicePaymentBody {
  amount_minor: number;
  method: OfficePaymentMethod;
  /** The payment's date (YYYY-MM-DD); today when left out. */
  date?: string;
  memo?: string;
}

/** `POST /invoices/{id}/send`: where the pay link went and until when it works. */
export interface InvoiceSendAnswer {
  invoice_id: number;
  emailed_to: string;
  expires_at: string;
}

/** The portal's pay page of an invoice (`GET /portal/invoices/{token}`). */
export interface PortalInvoiceAnswer {
  invoice: {
    number: string;
    invoice_date: string | null;
    due_date: string | null;
    currency: string;
    lines: { description: string; quantity: number; subtotal_minor: number; down_payment: boolean }[];
    untaxed_minor: number;
    tax_minor: number;
    total_minor: number;
    /** Paid before this invoice (the deposit): the down-payment lines deducted, tax included. */
    deposit_deducted_minor: number;
    residual_minor: number;
    /**
     * `due` when a card payment can be made now, `paid` when nothing is left, `office` when the company
     * takes no cards, `processing` when a card payment of the amount due is received and not yet in the ERP.
     */
    pay_state: 'due' | 'paid' | 'office' | 'processing';
  };
  company: { name: string };
}

/**
 * Outbox: a card payment of an invoice the provider's webhook confirmed, to be registered on the ERP
 * invoice by the worker (find-before-create by the payment intent id).
 */
export const TOPIC_INVOICE_CARD_PAYMENT = 'invoicing.card_payment';
export interface InvoiceCardPaymentJob {
  invoiceId: number;
  amountMinor: number;
  currency: string;
  paymentIntentId: string;
  sessionId: string;
}

/**
 * Outbox: a card refund the provider announced (`refund.created`), made by the office or in the
 * provider's dashboard, to be written in the ERP once by the control plane (a credit note and the
 * refund payment; one made by the office is found written already).
 */
export const TOPIC_INVOICE_CARD_REFUND = 'invoicing.card_refund';
export interface InvoiceCardRefundJob {
  invoiceId: number;
  paymentIntentId: string;
  refundId: string;
  amountMinor: number;
  currency: string;
}

/** Outbox: a completed job of a tenant that invoices automatically, to be invoiced by the control plane. */
export const TOPIC_INVOICE_AUTO = 'invoicing.auto_invoice';
export interface InvoiceAutoJob {
  jobId: string;
}

/** `GET`/`PUT /api/tenants/{id}/invoicing`: invoice automatically when an install job completes (off by default). */
export interface InvoicingSettings {
  auto_invoice: boolean;
}
