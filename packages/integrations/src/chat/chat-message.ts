/**
 * The text of team-chat notifications (the spec leaves it open): a one-line `text` for phones and
 * notifications, a card with the details, and one thread per ERP record.
 */
import {
  type ErpEventPayload,
  type ErpEventTopic,
  TOPIC_FSM_STAGE_CHANGED,
  TOPIC_INVOICE_POSTED,
  TOPIC_PO_CONFIRMED,
  TOPIC_SALE_CONFIRMED,
} from '@platform/contracts';

export interface ChatMessage {
  text: string;
  cardsV2: {
    cardId: string;
    card: {
      header: { title: string; subtitle?: string };
      sections: {
        widgets: { decoratedText?: { topLabel: string; text: string }; textParagraph?: { text: string } }[];
      }[];
    };
  }[];
  threadKey: string;
}

const nameOf = (v: unknown): string | null =>
  Array.isArray(v) && v.length > 1 ? String(v[1]) : typeof v === 'string' && v ? v : null;
const money = (amount: unknown, currency: unknown): string | null => {
  if (typeof amount !== 'number') return null;
  const code = nameOf(currency);
  const n = amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return code && /^[A-Z]{3}$/.test(code) ? `${code} ${n}` : n;
};
// Chat formatting characters in record values would change the message's meaning.
const plain = (s: string) => s.replace(/[*_~`]/g, '');

export function chatMessage(topic: ErpEventTopic, e: ErpEventPayload): ChatMessage {
  const r = e.record;
  const ref = plain(String(r.name ?? `#${e.recordId}`));
  const partner = nameOf(r.partner_id);
  const total = money(r.amount_total, r.currency_id);
  let title: string;
  let text: string;
  const facts: [string, string | null][] = [];
  switch (topic) {
    case TOPIC_FSM_STAGE_CHANGED:
      title = `Job ${ref}: ${e.newLabel ?? e.new}`;
      text = `*Job ${ref}* moved from *${plain(e.oldLabel ?? String(e.old))}* to *${plain(e.newLabel ?? String(e.new))}*`;
      facts.push(
        ['Location', nameOf(r.location_id)],
        ['Technician', nameOf(r.person_id)],
        ['Team', nameOf(r.team_id)],
        ['Scheduled', typeof r.scheduled_date_start === 'string' ? `${r.scheduled_date_start} UTC` : null],
      );
      break;
    case TOPIC_SALE_CONFIRMED:
      title = `Sales order ${ref} confirmed`;
      text = `*Sales order ${ref} confirmed*${partner ? ` for ${plain(partner)}` : ''}${total ? ` (${total})` : ''}`;
      facts.push(['Customer', partner], ['Total', total], ['Salesperson', nameOf(r.user_id)]);
      break;
    case TOPIC_INVOICE_POSTED:
      title = `Invoice ${ref} posted`;
      text = `*Invoice ${ref} posted*${partner ? ` for ${plain(partner)}` : ''}${total ? ` (${total})` : ''}`;
      facts.push(
        ['Customer', partner],
        ['Total', total],
        ['Invoice date', typeof r.invoice_date === 'string' ? r.invoice_date : null],
      );
      break;
    case TOPIC_PO_CONFIRMED:
      title = `Purchase order ${ref} confirmed`;
      text = `*Purchase order ${ref} confirmed*${partner ? ` with ${plain(partner)}` : ''}${total ? ` (${total})` : ''}`;
      facts.push(['Vendor', partner], ['Total', total]);
      break;
  }
  const widgets = facts
    .filter((f): f is [string, string] => f[1] !== null)
    .map(([topLabel, t]) => ({ decoratedText: { topLabel, text: t } }));
  return {
    text,
    threadKey: `${e.model}-${e.recordId}`,
    cardsV2: [
      {
        cardId: `${e.model}-${e.recordId}-${e.writeDate.replace(/\D/g, '')}`,
        card: { header: { title }, sections: [{ widgets: widgets.length ? widgets : [{ textParagraph: { text } }] }] },
      },
    ],
  };
}

/** The settings flag that enables each event's notification (spec: Team-chat configuration). */
export const FLAG_OF: Record<ErpEventTopic, 'enable_fsm' | 'enable_sales' | 'enable_invoice' | 'enable_po'> = {
  [TOPIC_FSM_STAGE_CHANGED]: 'enable_fsm',
  [TOPIC_SALE_CONFIRMED]: 'enable_sales',
  [TOPIC_INVOICE_POSTED]: 'enable_invoice',
  [TOPIC_PO_CONFIRMED]: 'enable_po',
};
