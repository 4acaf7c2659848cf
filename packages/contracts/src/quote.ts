/**
 * A quote as the control plane's `/sales/quotes` answers it: the platform's record with its window
 * details, and the ERP order's lines and totals. Shared by the control plane (which builds it) and
 * the office's browser bundle (which shows it), so browser-safe: types only.
 */
export interface QuoteLine {
  description: string;
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

export interface QuoteView {
  id: string;
  sale_order_id: number | null;
  name: string | null;
  /** The ERP order's state (draft, sent, sale, done, cancel), or `pending` before the order exists. */
  state: string;
  partner: { id: number; name: string } | null;
  lines: QuoteLine[];
  amount_untaxed: number;
  amount_tax: number;
  amount_total: number;
  deposit: number;
  created_at: string;
}
