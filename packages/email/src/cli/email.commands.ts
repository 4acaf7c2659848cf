/**
 * The commands of `npm run email` (docs/email.md), testable without a process:
 *   preview <template> [--tenant <slug>] [--format text|html|json] [--data '<json>']
 *   suppression list [--tenant <slug>] [--email <address>] [--all]
 *   suppression lift <email> [--tenant <slug>] [--by <who>]
 *   domain add <domain> | domain verify | domain show | domain remove   [--tenant <slug>]
 *   sender set [--from-name <name>] [--from-local-part <part>] [--reply-to <address>] [--tenant <slug>]
 */
import { parseArgs } from 'node:util';

import type { Db } from '@platform/db';
import { parseOrThrow } from '@platform/http-kit';
import { AppError } from '@platform/kernel';
import { defaultTenant, findTenant, getTenantSettings, setEmailSettings } from '@platform/tenancy';

import { senderSchema } from '../admin/email-admin.routes.js';
import { SendingDomainService } from '../domains/sending-domains.service.js';
import type { EmailConfig } from '../email.config.js';
import { EmailOutboxService } from '../email-outbox.service.js';
import { SuppressionService } from '../suppression/suppression.service.js';
import { sampleData } from '../templates/render.js';

export const USAGE = `usage: npm run email -- preview <template> [--tenant <slug>] [--format text|html|json] [--data '<json>']
       npm run email -- suppression list [--tenant <slug>] [--email <address>] [--all]
       npm run email -- suppression lift <email> [--tenant <slug>] [--by <who>]
       npm run email -- domain add <domain> | verify | show | remove [--tenant <slug>]
       npm run email -- sender set [--from-name <name>] [--from-local-part <part>] [--reply-to <address>] [--tenant <slug>]`;

export interface CliDeps {
  db: Db;
  config: EmailConfig;
  domains: SendingDomainService;
}

export async function runEmailCli(argv: string[], d: CliDeps, out: (s: string) => void): Promise<number> {
  const { values: v, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      tenant: { type: 'string' },
      format: { type: 'string' },
      data: { type: 'string' },
      email: { type: 'string' },
      all: { type: 'boolean' },
      by: { type: 'string' },
      'from-name': { type: 'string' },
      'from-local-part': { type: 'string' },
      'reply-to': { type: 'string' },
    },
  });
  const [area, cmd, arg] = positionals;
  const show = (x: unknown) => out(JSON.stringify(x, null, 2));
  const tenant = v.tenant ? await findTenant(d.db, v.tenant) : await defaultTenant(d.db);
  if (!tenant)
    throw new AppError(
      'TENANT_NOT_FOUND',
      v.tenant ? `No tenant "${v.tenant}".` : 'There is no tenant yet (start the platform once).',
    );
  if (area === 'preview' && cmd) {
    const outbox = new EmailOutboxService(d.db, {
      domain: d.config.EMAIL_PLATFORM_DOMAIN,
      fromName: d.config.EMAIL_PLATFORM_FROM_NAME,
    });
    const data = v.data ? JSON.parse(v.data) : sampleData(cmd);
    const m = await outbox.compose(d.db, {
      tenantId: tenant.id,
      template: cmd,
      to: { address: 'recipient@example.com' },
      key: 'preview',
      data,
    });
    if (v.format === 'html') out(m.html);
    else if (v.format === 'json') show(m);
    else
      out(
        `From: ${m.from.name ? `${m.from.name} <${m.from.address}>` : m.from.address}\n${m.replyTo ? `Reply-To: ${m.replyTo.address}\n` : ''}Subject: ${m.subject}\n\n${m.text}`,
      );
  } else if (area === 'suppression' && cmd === 'list') {
    const rows = await new SuppressionService(d.db).list(tenant.id, {
      ...(v.email ? { email: v.email } : {}),
      includeLifted: v.all === true,
    });
    show(
      rows.map((r) => ({
        email: r.email,
        reason: r.reason,
        scope: r.scope,
        provider: r.provider,
        since: r.created_at,
        lifted_at: r.lifted_at,
        lifted_by: r.lifted_by,
        detail: r.detail,
        liftable: r.reason !== 'complaint' && r.lifted_at === null && r.tenant_id === tenant.id,
      })),
    );
  } else if (area === 'suppression' && cmd === 'lift' && arg) {
    show(await new SuppressionService(d.db).lift(tenant.id, arg, v.by ?? 'cli'));
  } else if (area === 'domain' && cmd === 'add' && arg)
    show(
      await d.domains
        .add(tenant.id, arg)
        .then(({ domain: { dkim_private_key_sealed: _s, ...dom }, records }) => ({ domain: dom, records })),
    );
  else if (area === 'domain' && cmd === 'verify')
    show(
      await d.domains
        .verify(tenant.id)
        .then(({ domain: { dkim_private_key_sealed: _s, ...dom }, records }) => ({ domain: dom, records })),
    );
  else if (area === 'domain' && cmd === 'show') show(await d.domains.show(tenant.id));
  else if (area === 'domain' && cmd === 'remove') {
    await d.domains.remove(tenant.id);
    show({ removed: true });
  } else if (area === 'sender' && cmd === 'set') {
    const input = parseOrThrow(senderSchema, {
      from_name: v['from-name'],
      from_local_part: v['from-local-part'],
      reply_to: v['reply-to'],
    });
    const current = (await getTenantSettings(d.db, tenant.id))?.email_settings ?? {};
    const next = { ...current, ...Object.fromEntries(Object.entries(input).filter(([, x]) => x !== undefined)) };
    await setEmailSettings(d.db, tenant.id, next);
    show(await d.domains.show(tenant.id));
  } else {
    out(USAGE);
    return 2;
  }
  return 0;
}
