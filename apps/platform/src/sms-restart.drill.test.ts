/**
 * The SMS restart drill (issue 22's "must show"): `npm start` on embedded defaults (PGlite, the local
 * stand-ins) is stopped and started again between every SMS step, on one DATA_DIR:
 *
 * 1. a text from a new number makes one lead (and the team-chat flags are changed, without the URL);
 * 2. after a restart: still one lead; a text sent makes one message at the provider, its job done at once;
 * 3. after a restart: still one message at the provider; a text from a number that merely contains a
 *    customer's digits makes a new lead, not a message on that customer; the chat flags are as set.
 *
 * Also: a tenant created while running (`npm run tenants -- create`) gets its own stand-in SMS account,
 * line and accounting app, and keeps them at the next start, where a text to its line is filed for it.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createOdooRpcClient } from '@platform/erp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  freePort,
  httpOk,
  killSpawned,
  type PlatformProcess,
  runCli,
  spawnPlatform,
  waitFor,
} from '../test/support/platform-harness.js';

const LINE = '13035550100';
const NEW_NUMBER = '13035550142';
/** Contains the customer's ten digits in order ("720 555 01…88"), but is another number. */
const LOOKALIKE = '17205550188';

let dataDir: string;
let env: Record<string, string>;
let platform: PlatformProcess | undefined;
let erpUrl: string;
let consoleUrl: string;
let landingUrl: string;

const cli = (script: string, args: string[], stdin = '') => runCli(script, args, env, { stdin, timeoutMs: 180_000 });
const integrations = (args: string[], stdin = '') => cli('apps/erp/src/integrations.cli.ts', args, stdin);

/** One `npm start`: runs `steps` while it is up, then stops it (SIGTERM: a clean exit, 0). */
async function oneStart(steps: () => Promise<void>): Promise<void> {
  platform = spawnPlatform(env);
  const exited = platform.exited;
  try {
    await waitFor('platform start', () => httpOk(`${landingUrl}/health`), 180_000);
    // The stand-ins' console is the last thing a start opens.
    await waitFor('the stand-ins console', () => httpOk(consoleUrl), 60_000);
    await steps();
  } finally {
    platform.child.kill('SIGTERM');
    platform = undefined;
  }
  expect(await exited).toBe(0);
}

/** The default tenant's ERP, as the platform calls it (its own API key, made at first start). */
async function erp(model: string, method: string, args: unknown[], kwargs: Record<string, unknown> = {}) {
  const key = readFileSync(join(dataDir, 'erp-platform-api-key'), 'utf8').trim();
  return createOdooRpcClient({ url: erpUrl }).call('object', 'execute_kw', [
    'platform',
    2,
    key,
    model,
    method,
    args,
    kwargs,
  ]);
}
const leadsFrom = async (digits: string) =>
  (await erp('crm.lead', 'search', [[['phone', '=', `+${digits}`]]], { context: { active_test: false } })) as number[];

type Seen = {
  accounting: { organisation: string }[];
  sms: { direction: string; contact: string; body: string; status: string; id: number }[];
};
const organisations = async () => (await seen()).accounting.map((o) => o.organisation);
const seen = async () => (await (await fetch(consoleUrl)).json()) as Seen;
async function textIn(from: string, body: string): Promise<void> {
  const r = await fetch(`${consoleUrl}/sms/inbound`, {
    method: 'POST',
    body: JSON.stringify({ from, to: LINE, body }),
  });
  expect(r.status).toBe(202);
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'sms-restart-drill-'));
  const [erpPort, landingPort, consolePort] = [await freePort(), await freePort(), await freePort()];
  erpUrl = `http://127.0.0.1:${erpPort}`;
  consoleUrl = `http://127.0.0.1:${consolePort}`;
  landingUrl = `http://127.0.0.1:${landingPort}`;
  env = {
    DATA_DIR: dataDir,
    ERP_PORT: String(erpPort),
    ERP_HOST: '127.0.0.1',
    LANDING_PORT: String(landingPort),
    LANDING_HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    OUTBOX_POLL_MS: '200',
    LOCAL_PROVIDERS_PORT: String(consolePort),
  };
}, 60_000);
afterAll(async () => {
  killSpawned();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the SMS restart drill on npm start (PGlite, local stand-ins)', () => {
  let customer: number;

  it('start 1: a text from a new number makes one lead; the chat flags change without the URL', async () => {
    await oneStart(async () => {
      customer = (await erp('res.partner', 'create', [
        { name: 'Ext Customer', phone: '+1 720 555 0130 ext. 188' },
      ])) as number;
      await textIn(NEW_NUMBER, 'Do you do shutters?');
      await waitFor('the lead', async () => ((await leadsFrom(NEW_NUMBER)).length ? true : undefined), 120_000);
      expect(await leadsFrom(NEW_NUMBER)).toHaveLength(1);
      const flags = await integrations(['chat', 'set'], JSON.stringify({ enable_sales: false, enable_po: false }));
      expect(flags).toMatchObject({ code: 0, stderr: '' });
    });
  }, 300_000);

  it('start 2: still one lead; a text sent makes one message at the provider, its job done at its first attempt; a company created meanwhile gets its own stand-in accounts', async () => {
    await oneStart(async () => {
      expect(await leadsFrom(NEW_NUMBER)).toHaveLength(1);
      const sent = await integrations(['sms', 'send', '--to', `+${NEW_NUMBER}`, '--body', 'Yes, we do shutters']);
      expect(sent).toMatchObject({ code: 0, stderr: '' });
      const outgoing = async () =>
        (await seen()).sms.filter((m) => m.direction === 'Outgoing' && m.body === 'Yes, we do shutters');
      await waitFor('delivered at the provider', async () =>
        (await outgoing()).some((m) => m.status === 'delivered') ? true : undefined,
      );
      expect(await outgoing()).toHaveLength(1);
      // Its id was stored (no collision with the inbound text's): done, never retried.
      const done = await waitFor('the send job done', async () => {
        const r = await cli('apps/worker/src/outbox.cli.ts', ['list', 'done']);
        return /\tsms\.send\tdone\tattempts=1\t/.test(r.stdout) ? r.stdout : undefined;
      });
      expect(done.match(/\tsms\.send\t/g)).toHaveLength(1);

      // A company signs up while npm start runs: it gets its own accounts at the stand-ins within seconds.
      const created = await runCli(
        'apps/platform/src/tenants.cli.ts',
        [
          'create',
          '--slug',
          'oak',
          '--name',
          'Oak Shutters',
          '--plan',
          'free',
          '--owner-email',
          'owner@oak.test',
          '--owner-password',
          'correct horse battery',
        ],
        { ...env, ERP_URL: erpUrl },
        { timeoutMs: 180_000 },
      );
      expect(created, created.stderr).toMatchObject({ code: 0 });
      await waitFor('its accounting organisation', async () =>
        (await organisations()).includes('Oak Shutters') ? true : undefined,
      );
    });
  }, 300_000);

  it("start 3: still one message; a text from a number that merely contains a customer's digits makes a new lead; flags as set; the new company's line works", async () => {
    await oneStart(async () => {
      const before = (await seen()).sms;
      expect(before.filter((m) => m.direction === 'Outgoing')).toHaveLength(1);
      expect(new Set(before.map((m) => m.id)).size).toBe(before.length);
      await textIn(LOOKALIKE, 'Is this the blinds shop?');
      await waitFor('the new lead', async () => ((await leadsFrom(LOOKALIKE)).length ? true : undefined), 120_000);
      expect(await leadsFrom(LOOKALIKE)).toHaveLength(1);
      expect(await leadsFrom(NEW_NUMBER)).toHaveLength(1);
      const onCustomer = await erp('mail.message', 'search', [
        [
          ['model', '=', 'res.partner'],
          ['res_id', '=', customer],
          ['body', 'ilike', 'blinds shop'],
        ],
      ]);
      expect(onCustomer).toEqual([]);
      // The company created while running is on its own accounts again, its notices at its own URLs.
      expect(await organisations()).toContain('Oak Shutters');
      const oak = JSON.parse((await integrations(['sms', 'show', '--tenant', 'oak'])).stdout) as {
        webhook_url: string;
        lines: { phone_number: string }[];
      };
      expect(oak.webhook_url).toBe(`${erpUrl}/sms/webhook/oak/sms`);
      expect(oak.lines.map((l) => l.phone_number)).toEqual(['13035550101']);
      const r = await fetch(`${consoleUrl}/sms/inbound`, {
        method: 'POST',
        body: JSON.stringify({ from: '13035550177', to: '13035550101', body: 'Oak, are you open?' }),
      });
      expect(r.status).toBe(202);
      await waitFor('its text filed', async () => {
        const done = (await cli('apps/worker/src/outbox.cli.ts', ['list', 'done'])).stdout;
        return (done.match(/\tsms\.inbound\t/g) ?? []).length === 3 ? true : undefined;
      });
      const chat = await integrations(['chat', 'show']);
      expect(JSON.parse(chat.stdout)).toMatchObject({
        enable_fsm: true,
        enable_sales: false,
        enable_invoice: true,
        enable_po: false,
      });
    });
  }, 300_000);
});
