/**
 * `npm run integrations -- <area> <command> [--tenant <slug>]`: the ERP-side integration settings of
 * a tenant, the default tenant unless `--tenant` names another (docs/integrations.md). Values with secrets are read as JSON from standard input, so they
 * never appear in the shell history or the process list; secrets are shown back masked.
 *   accounting set < connection.json | accounting show
 *   sms set < sms.json | sms show | sms line add < line.json
 *   chat set < chat.json | chat show
 *   sms send --to <number> --body <text> [--type sales|support|operations]
 */
import { parseArgs } from 'node:util';

import { parseOrThrow } from '@platform/http-kit';
import {
  accountingConnectionSchema,
  chatConfigSchema,
  smsConfigSchema,
  smsLineSchema,
  smsWebhookPath,
} from '@platform/integrations';
import { AppError, runCliMain } from '@platform/kernel';

import { withIntegrationsCli } from './deps.js';
import { loadErpConfig } from './erp.config.js';
import { integrationTenant } from './features/integrations/integration-tenant.js';
import type { IntegrationsDeps } from './features/integrations/integrations.types.js';

export const USAGE = `usage: npm run integrations -- accounting set|show   (set reads JSON on stdin)
       npm run integrations -- sms set|show | sms line add      (set/add read JSON on stdin)
       npm run integrations -- sms send --to <number> --body <text> [--type sales|support|operations]
       npm run integrations -- chat set|show                    (set reads JSON on stdin)
       every command takes --tenant <slug> (default: the default tenant)`;

export async function runIntegrationsCli(
  argv: string[],
  d: IntegrationsDeps,
  readInput: () => Promise<unknown>,
  out: (s: string) => void,
): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { to: { type: 'string' }, body: { type: 'string' }, type: { type: 'string' }, tenant: { type: 'string' } },
  });
  const [area, cmd, sub] = positionals;
  const show = (v: unknown) => out(JSON.stringify(v, null, 2));
  const tenant = await integrationTenant(d, values.tenant);
  if (!tenant) throw new AppError('TENANT_NOT_FOUND', `No active tenant "${values.tenant}".`);
  const t = tenant.id;
  // The default tenant keeps the URL it always had; another tenant's carries its slug.
  const smsPath = smsWebhookPath(tenant.isDefault ? undefined : tenant.slug);
  if (area === 'accounting' && cmd === 'set')
    show(await d.settings.setAccountingConnection(t, parseOrThrow(accountingConnectionSchema, await readInput())));
  else if (area === 'accounting' && cmd === 'show') show(await d.settings.showAccountingConnection(t));
  else if (area === 'sms' && cmd === 'set') {
    const input = parseOrThrow(smsConfigSchema, await readInput());
    await d.settings.setSmsConfig(t, input);
    show(await d.settings.showSmsConfig(t, input.company_id, smsPath));
  } else if (area === 'sms' && cmd === 'show') show(await d.settings.showSmsConfig(t, 1, smsPath));
  else if (area === 'sms' && cmd === 'line' && sub === 'add')
    show(await d.settings.addSmsLine(t, parseOrThrow(smsLineSchema, await readInput())));
  else if (area === 'sms' && cmd === 'send') {
    if (!values.to || !values.body) throw new Error('--to and --body are required');
    const type = values.type as 'sales' | 'support' | 'operations' | undefined;
    show(await d.sms.queue(t, { to: values.to, body: values.body, ...(type ? { lineType: type } : {}) }));
  } else if (area === 'chat' && cmd === 'set')
    show(await d.settings.setChatConfig(t, parseOrThrow(chatConfigSchema, await readInput())));
  else if (area === 'chat' && cmd === 'show') show(await d.settings.showChatConfig(t));
  else {
    out(USAGE);
    return 2;
  }
  return 0;
}

async function readStdinJson(): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString('utf8').trim();
  try {
    return JSON.parse(text);
  } catch {
    throw new Error('expected a JSON object on standard input');
  }
}

const isMain = process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/').split('/').pop()!);
if (isMain) {
  await runCliMain(USAGE, async (argv) => {
    // The platform database, as the ERP host and the worker use it (on PGlite, served by the running
    // platform when it owns the files).
    return withIntegrationsCli(loadErpConfig(), (deps) =>
      runIntegrationsCli(argv, deps, readStdinJson, (s) => process.stdout.write(`${s}\n`)),
    );
  });
}
