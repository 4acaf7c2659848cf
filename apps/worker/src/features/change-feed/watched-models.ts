/**
 * What the change feed watches: per model, the field whose transitions matter and which transitions
 * become domain events. Field and state names are Odoo 15's (sale, account, purchase, OCA fieldservice).
 */
import {
  type ErpEventTopic,
  TOPIC_ACCOUNTING_PUSH_MONEY,
  TOPIC_FSM_STAGE_CHANGED,
  TOPIC_INVOICE_POSTED,
  TOPIC_PO_CONFIRMED,
  TOPIC_SALE_CONFIRMED,
} from '@platform/contracts';
import type { Domain } from '@platform/erp';

export { TOPIC_FSM_STAGE_CHANGED, TOPIC_INVOICE_POSTED, TOPIC_PO_CONFIRMED, TOPIC_SALE_CONFIRMED };

export interface WatchedModel {
  model: string;
  /** The feed's own name (its cursor) when one model is watched twice; default: the model. */
  feed?: string;
  field: string;
  /** Only records matching this domain are watched (e.g. customer invoices only). */
  domain: Domain;
  /** Extra fields carried in the event for its consumers (chat messages, accounting sync). */
  fields: string[];
  topic: ErpEventTopic | typeof TOPIC_ACCOUNTING_PUSH_MONEY;
  /** Whether a change old -> new is an event of this topic. */
  isEvent(oldValue: string | null, newValue: string | null): boolean;
}

const into = (target: string) => (o: string | null, n: string | null) => n === target && o !== target;

export const WATCHED_MODELS: WatchedModel[] = [
  {
    model: 'fsm.order',
    field: 'stage_id',
    domain: [],
    fields: ['name', 'company_id', 'location_id', 'person_id', 'team_id', 'scheduled_date_start'],
    topic: TOPIC_FSM_STAGE_CHANGED,
    isEvent: (o, n) => o !== null && o !== n,
  },
  {
    model: 'sale.order',
    field: 'state',
    domain: [],
    fields: ['name', 'company_id', 'partner_id', 'amount_total', 'currency_id', 'user_id'],
    topic: TOPIC_SALE_CONFIRMED,
    isEvent: into('sale'),
  },
  {
    model: 'account.move',
    field: 'state',
    domain: [['move_type', '=', 'out_invoice']],
    fields: ['name', 'company_id', 'partner_id', 'amount_total', 'currency_id', 'invoice_date'],
    topic: TOPIC_INVOICE_POSTED,
    isEvent: into('posted'),
  },
  // ERP money for the accounting provider: its one consumer, so the event is the job itself (no chat).
  {
    model: 'account.payment',
    field: 'state',
    domain: [['partner_type', '=', 'customer']],
    fields: ['name', 'company_id', 'partner_id', 'amount', 'payment_type'],
    topic: TOPIC_ACCOUNTING_PUSH_MONEY,
    isEvent: into('posted'),
  },
  {
    model: 'account.move',
    feed: 'account.move:out_refund',
    field: 'state',
    domain: [['move_type', '=', 'out_refund']],
    fields: ['name', 'company_id', 'partner_id', 'amount_total', 'reversed_entry_id'],
    topic: TOPIC_ACCOUNTING_PUSH_MONEY,
    isEvent: into('posted'),
  },
  {
    model: 'purchase.order',
    field: 'state',
    domain: [],
    fields: ['name', 'company_id', 'partner_id', 'amount_total', 'currency_id'],
    topic: TOPIC_PO_CONFIRMED,
    isEvent: into('purchase'),
  },
];

/** A many2one `[id, name]` becomes its id as text; other values their text; empty (`false`) null. */
export function valueOf(v: unknown): string | null {
  if (v === false || v === null || v === undefined) return null;
  if (Array.isArray(v)) return v.length ? String(v[0]) : null;
  return String(v);
}

export const labelOf = (v: unknown): string | null => (Array.isArray(v) && v.length > 1 ? String(v[1]) : valueOf(v));
