/**
 * Test support of the messages feature: a migrated database with two tenants, a clock the test
 * moves, the scheduler and a sender over the real email outbox and SMS queue, and what reached them.
 * The ERP is a recorder of chatter notes (the sender searches mail.message by its Message-Id and
 * creates it). Test code only.
 */
import { createTwoTenantDb, type Queryable, type TestDb, withTenant } from '@platform/db';
import { EmailOutboxService } from '@platform/email';
import type { Erp } from '@platform/erp';
import type { Clock } from '@platform/kernel';
import { normalizeSmsPhone } from '@platform/providers';

import type { CrmSalesKit, SalesTenant } from '../../testing/crm-sales-kit.js';
import { quotesFirstOpened } from '../portal/portal-links.js';
import { type JobFacts, MessageScheduler } from './message-scheduler.js';
import { MessageSender, type SenderDeps } from './message-sender.js';

export const LINE = '13035550100';

export interface MessagesKit {
  t: TestDb;
  a: string;
  b: string;
  clock: Clock & { set(iso: string): void };
  scheduler: MessageScheduler;
  sender(over?: Partial<SenderDeps>): MessageSender;
  chatter: { order: number; body: string }[];
  texts(tenantId: string): Promise<{ contact_number: string; body: string }[]>;
  emails(tenantId: string): Promise<{ to_address: string; subject: string }[]>;
  inTenant<T>(tenantId: string, fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** The zone whose local hour is 12 now (Etc/GMT-N is UTC+N): quiet hours never hold a test's texts. */
export function middayZone(now = new Date()): string {
  const n = (((12 - now.getUTCHours()) % 24) + 24) % 24;
  const offset = n > 12 ? n - 24 : n;
  return offset === 0 ? 'Etc/GMT' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`;
}

/**
 * The tenant texts its customers: an SMS line, and a zone where it is daytime now so quiet hours
 * never hold a test's texts (the control plane's own routes, as the owner sets them).
 */
export async function textingTenant(k: CrmSalesKit, t: SalesTenant): Promise<void> {
  const ok = (r: { status: number; body: unknown }, status: number) => {
    if (r.status !== status) throw new Error(`test setup: ${r.status} ${JSON.stringify(r.body)}`);
  };
  ok(await k.call('PUT', `/api/tenants/${t.id}/settings`, t.owner, { time_zone: middayZone() }), 200);
  await k.call('PUT', `/api/tenants/${t.id}/integrations/sms`, t.owner, {
    api_key: 'alpha-key-0001',
    api_secret: 'alpha-secret-0001',
    webhook_base_url: 'http://localhost:8069',
  });
  const line = { name: 'Acme', phone_number: '303 555 0100', line_type: 'sales' };
  ok(await k.call('POST', `/api/tenants/${t.id}/integrations/sms/lines`, t.owner, line), 201);
}

export function jobFacts(over: Partial<JobFacts> = {}): JobFacts {
  return {
    jobId: '00000000-0000-4000-8000-000000000001',
    saleOrderId: 7,
    partnerId: 11,
    name: 'Jane Roe',
    phone: '+1 303 555 0123',
    email: 'jane@example.com',
    start: null,
    end: null,
    technician: 'Alex Fitter',
    ...over,
  };
}

export async function startMessagesKit(): Promise<MessagesKit> {
  const { t, a, b } = await createTwoTenantDb('msg');
  let now = Date.parse('2026-03-02T15:00:00Z');
  const clock = { now: () => new Date(now), set: (iso: string) => void (now = Date.parse(iso)) };
  const chatter: { order: number; body: string; message_id: string }[] = [];
  const erp = {
    search: async (_model: string, domain: [string, string, string][]) =>
      chatter.flatMap((c, i) => (c.message_id === domain[0]![2] ? [i + 1] : [])),
    create: async (_model: string, v: { res_id: number; body: string; message_id: string }) =>
      chatter.push({ order: v.res_id, body: v.body, message_id: v.message_id }),
  } as unknown as Erp;
  const email = new EmailOutboxService(t.db, { domain: 'platform.test', fromName: 'Platform' });
  const normalize = (raw: string) => normalizeSmsPhone(raw, 'US');
  const deps: SenderDeps = {
    ...{ db: t.db, clock, erps: { forTenant: async () => erp }, email },
    ...{ lineOf: async () => LINE, quotesOpened: quotesFirstOpened },
  };
  return {
    ...{ t, a, b, clock, chatter },
    scheduler: new MessageScheduler(clock, normalize),
    sender: (over = {}) => new MessageSender({ ...deps, ...over }),
    texts: async (tenantId) =>
      (
        await t.db.query<{ contact_number: string; body: string }>(
          `SELECT contact_number, body FROM sms_messages WHERE tenant_id = $1 AND direction = 'outbound' ORDER BY created_at, id`,
          [tenantId],
        )
      ).rows,
    emails: async (tenantId) =>
      (
        await t.db.query<{ to_address: string; subject: string }>(
          `SELECT to_address, subject FROM email_messages WHERE tenant_id = $1 ORDER BY created_at, id`,
          [tenantId],
        )
      ).rows,
    inTenant: (tenantId, fn) => withTenant(t.db, tenantId, fn),
    close: () => t.drop(),
  };
}
