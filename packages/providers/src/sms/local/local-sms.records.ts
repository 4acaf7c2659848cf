/** The local SMS stand-in's texts: their record, their JustCall wire shape, and the state file that keeps them. */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

import type { SmsStatus } from '../sms.port.js';

export interface LocalSmsMessage {
  id: number;
  /** The API key of the account the text belongs to. */
  account: string;
  direction: 'Incoming' | 'Outgoing';
  line: string;
  lineName: string;
  contact: string;
  body: string;
  status: SmsStatus;
  createdAt: Date;
}

/** A text as JustCall's API and webhooks show it. */
export const smsObject = (m: LocalSmsMessage) => {
  const iso = m.createdAt.toISOString();
  return {
    id: m.id,
    contact_number: m.contact,
    contact_name: '',
    justcall_number: m.line,
    justcall_line_name: m.lineName,
    agent_id: 0,
    sms_date: iso.slice(0, 10),
    sms_time: iso.slice(11, 19),
    direction: m.direction,
    cost_incurred: 0,
    sms_info: { body: m.body, is_mms: '0', mms: [] },
    delivery_status: m.status,
    is_deleted: false,
    medium: 'One-To-One via API',
  };
};

/** Texts kept before accounts were recorded belong to the first account. */
export function loadMessages(file: string | undefined, firstAccount: string): LocalSmsMessage[] {
  if (!file || !existsSync(file)) return [];
  const raw = JSON.parse(readFileSync(file, 'utf8')) as (Omit<LocalSmsMessage, 'createdAt' | 'account'> & {
    createdAt: string;
    account?: string;
  })[];
  return raw.map((m) => ({ ...m, account: m.account ?? firstAccount, createdAt: new Date(m.createdAt) }));
}

export function saveMessages(file: string | undefined, messages: LocalSmsMessage[]): void {
  if (file) writeFileSync(file, JSON.stringify(messages), { mode: 0o600 });
}
