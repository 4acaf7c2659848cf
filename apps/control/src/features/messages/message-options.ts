/** A tenant's message options and kinds with their defaults filled in (no row: the built-in ones). */
import { DEFAULT_TIME_ZONE } from '@platform/contracts/branding.js';
import type { Queryable } from '@platform/db';
import { getTenantSettings, tenantBranding } from '@platform/tenancy';

import { DEFAULT_TEMPLATES, MESSAGE_KINDS, type MessageKind, type Template } from './message-kinds.js';
import * as repo from './message-settings.repo.js';

/** On until the tenant turns them off: each answers something the customer booked. */
const ON_BY_DEFAULT: readonly MessageKind[] = ['appointment_confirmed', 'reminder', 'on_my_way', 'job_done'];

export const DEFAULT_SETTINGS: repo.SettingsRow = {
  reminder_hour: 17,
  review_link: null,
  review_delay_hours: 2,
  quote_follow_up_days: 3,
  invoice_reminder_days: 7,
};

export interface KindOptions extends Template {
  kind: MessageKind;
  enabled: boolean;
}

export interface TenantMessaging {
  settings: repo.SettingsRow;
  kinds: Record<MessageKind, KindOptions>;
  timeZone: string;
  company: string;
}

export async function tenantMessaging(tx: Queryable, tenantId: string): Promise<TenantMessaging> {
  const [s, rows, ts, brand] = [
    await repo.settings(tx, tenantId),
    await repo.kinds(tx, tenantId),
    await getTenantSettings(tx, tenantId),
    await tenantBranding(tx, tenantId),
  ];
  const byKind = new Map(rows.map((r) => [r.kind, r]));
  const kinds = Object.fromEntries(
    MESSAGE_KINDS.map((kind) => {
      const r = byKind.get(kind);
      const d = DEFAULT_TEMPLATES[kind];
      return [
        kind,
        {
          kind,
          enabled: r?.enabled ?? ON_BY_DEFAULT.includes(kind),
          sms: r?.sms_template ?? d.sms,
          subject: r?.email_subject ?? d.subject,
          email: r?.email_template ?? d.email,
        },
      ];
    }),
  ) as Record<MessageKind, KindOptions>;
  return {
    settings: s ?? DEFAULT_SETTINGS,
    kinds,
    timeZone: ts?.time_zone ?? DEFAULT_TIME_ZONE,
    company: brand.company_name,
  };
}
