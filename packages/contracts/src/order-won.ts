/**
 * A won order's conversion, sent back to the ad platforms (docs/reports.md): queued once per order when
 * its quote is accepted, delivered by the worker to each platform configured. Carries everything
 * delivery needs, so the worker reads neither the ERP nor the control plane's tables.
 */
export const TOPIC_ORDER_WON = 'conversions.order_won';

export interface OrderWonPayload {
  /** `order-won:<tenant>:<sale order id>`: the outbox dedupe key, Google's `orderId`, Meta's `event_id`. */
  eventId: string;
  saleOrderId: number;
  /** ISO date-time the quote was accepted. */
  wonAt: string;
  /** The order total, integer minor units of `currency` (the tenant's). */
  valueMinor: number;
  currency: string;
  /** The lead's Google click ids, carried to the order; absent when the lead had none. */
  gclid?: string;
  gbraid?: string;
  wbraid?: string;
  /**
   * Meta's click id as its `_fbc` cookie would hold it, `fb.1.<ms first seen>.<fbclid>` (the lead's
   * creation time): Meta's documented form when only the fbclid was kept. Absent without an fbclid.
   */
  fbc?: string;
  /** The customer's email and phone, raw: Meta's adapter normalises and hashes them before sending. */
  email?: string;
  phone?: string;
}

/** `_fbc` from an fbclid first seen at `seenAt` (Meta: `fb.<subdomain index>.<creation ms>.<fbclid>`). */
export const fbcOf = (fbclid: string, seenAt: Date): string => `fb.1.${seenAt.getTime()}.${fbclid}`;

export const orderWonEventId = (tenantId: string, saleOrderId: number): string =>
  `order-won:${tenantId}:${saleOrderId}`;
