/**
 * The platform can be administered while it runs on the embedded database: the CLIs reach the
 * running process's PGlite databases (served on a unix socket), so revoking a leaked REST API key
 * takes effect at once without stopping anything; `--help` of every CLI prints usage, no stack.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  freePort,
  type PlatformProcess,
  runCli,
  spawnPlatform,
  startPlatform,
  stopPlatform,
  waitFor,
} from '../test/support/platform-harness.js';

const CLIS = {
  restapi: 'apps/erp/src/restapi.cli.ts',
  erp: 'apps/erp/src/erp.cli.ts',
  integrations: 'apps/erp/src/integrations.cli.ts',
  outbox: 'apps/worker/src/outbox.cli.ts',
  migrate: 'packages/db/src/migrate.cli.ts',
} as const;

let dataDir: string;
let env: Record<string, string>;
let platform: PlatformProcess;
let erpUrl: string;
let consoleUrl: string;

const cli = (name: keyof typeof CLIS, args: string[], stdin?: string) =>
  runCli(CLIS[name], args, env, { stdin, timeoutMs: 120_000 });

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'platform-admin-'));
  const [erpPort, landingPort, consolePort] = [await freePort(), await freePort(), await freePort()];
  env = {
    DATA_DIR: dataDir,
    ERP_PORT: String(erpPort),
    ERP_HOST: '127.0.0.1',
    LANDING_PORT: String(landingPort),
    LANDING_HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    CHANGE_FEED_POLL_MS: '1000',
    OUTBOX_POLL_MS: '200',
    LOCAL_PROVIDERS_PORT: String(consolePort),
  };
  consoleUrl = `http://127.0.0.1:${consolePort}`;
  erpUrl = `http://127.0.0.1:${erpPort}`;
  platform = await startPlatform(env, landingPort);
}, 240_000);
afterAll(() => stopPlatform(platform, dataDir));

describe('with npm start running on PGlite', () => {
  it('restapi key revoke works, and the REST API refuses the key at once', async () => {
    const created = await cli('restapi', [
      'key',
      'create',
      '--login',
      'admin',
      '--description',
      'leaked',
      '--scope',
      'read:res.partner',
    ]);
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const key = created.stdout.trim().split('\n').pop()!;
    const id = /API key (\d+)/.exec(created.stdout)![1]!;
    const read = () => fetch(`${erpUrl}/restapi/1.0/object/res.partner`, { headers: { 'x-api-key': key } });
    expect((await read()).status).toBe(200);

    const revoked = await cli('restapi', ['key', 'revoke', id]);
    expect(revoked).toMatchObject({ code: 0, stderr: '' });
    expect(revoked.stdout).toContain(`API key ${id}`);
    expect((await read()).status).toBe(401);
    expect((await cli('restapi', ['key', 'list'])).stdout).toMatch(new RegExp(`^${id}\\t.*revoked`, 'm'));
  }, 240_000);

  it('runs local SMS, accounting, chat and mail stand-ins, announced, with settings pointed at them', async () => {
    expect(platform.output()).toContain('LOCAL stand-ins for SMS, accounting, team chat and email');
    expect(platform.output()).toContain(`${consoleUrl}/mail`);
    const sms = JSON.parse((await cli('integrations', ['sms', 'show'])).stdout) as {
      webhook_base_url: string;
      lines: { phone_number: string }[];
    };
    expect(sms.webhook_base_url).toBe(erpUrl);
    expect(sms.lines).toHaveLength(1);
    const acct = await cli('integrations', ['accounting', 'show']);
    expect(acct).toMatchObject({ code: 0 });
    expect(JSON.parse(acct.stdout)).toMatchObject({ name: 'Local accounting stand-in' });
    expect(JSON.parse((await cli('integrations', ['chat', 'show'])).stdout).webhook_url).toMatch(
      /^http:\/\/127\.0\.0\.1:/,
    );

    // Send: through the outbox to the local provider, which reports delivery back by signed webhook.
    const sent = await cli('integrations', [
      'sms',
      'send',
      '--to',
      '+1 303 555 0123',
      '--body',
      'Your blinds ship Monday',
    ]);
    expect(sent).toMatchObject({ code: 0, stderr: '' });
    type Seen = { sms: { direction: string; body: string; status: string }[]; chat: { text?: string }[] };
    const seen = async () => (await (await fetch(consoleUrl)).json()) as Seen;
    await waitFor('the SMS at the provider', async () =>
      (await seen()).sms.some((m) => m.direction === 'Outgoing' && m.body === 'Your blinds ship Monday')
        ? true
        : undefined,
    );
    // Receive: a customer texts our line; the ERP host takes the signed webhook and the worker files it.
    const line = sms.lines[0]!.phone_number.replace(/\D/g, '');
    const inbound = await fetch(`${consoleUrl}/sms/inbound`, {
      method: 'POST',
      body: JSON.stringify({ from: '13035550999', to: line, body: 'Is Tuesday OK?' }),
    });
    expect(inbound.status).toBe(202);
    await waitFor(
      'the inbound SMS filed',
      async () => ((await cli('outbox', ['list', 'done'])).stdout.includes('sms.inbound') ? true : undefined),
      120_000,
    );
    // Chat: a sale order confirmed in the ERP reaches the local chat through the change feed.
    const key = readFileSync(join(dataDir, 'erp-platform-api-key'), 'utf8').trim();
    const call = async (model: string, method: string, args: unknown[]) => {
      const r = await fetch(`${erpUrl}/jsonrpc`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          method: 'call',
          id: 1,
          params: { service: 'object', method: 'execute_kw', args: ['platform', 2, key, model, method, args] },
        }),
      });
      const body = (await r.json()) as { result?: unknown; error?: unknown };
      if (body.error) throw new Error(JSON.stringify(body.error));
      return body.result;
    };
    const partner = (await call('res.partner', 'create', [{ name: 'Chat Check Customer' }])) as number;
    const order = (await call('sale.order', 'create', [{ partner_id: partner }])) as number;
    await call('sale.order', 'action_confirm', [[order]]);
    await waitFor('a chat message', async () => ((await seen()).chat.length > 0 ? true : undefined), 120_000);
  }, 300_000);

  it('integrations show, erp apikey list and outbox stats answer from the running databases', async () => {
    const set = await cli(
      'integrations',
      ['sms', 'set'],
      JSON.stringify({ api_key: 'key-while-running', api_secret: 'secret-while-running', webhook_base_url: erpUrl }),
    );
    expect(set).toMatchObject({ code: 0, stderr: '' });
    const sms = await cli('integrations', ['sms', 'show']);
    expect(sms).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(sms.stdout)).toMatchObject({ webhook_base_url: erpUrl, api_key: expect.stringMatching(/ning$/) });
    expect(sms.stdout).not.toContain('secret-while-running'); // secrets are shown masked
    const keys = await cli('erp', ['apikey', 'list']);
    expect(keys).toMatchObject({ code: 0, stderr: '' });
    expect(keys.stdout).toMatch(/\tadmin\t/); // the platform's own key, created at first start
    const stats = await cli('outbox', ['stats']);
    expect(stats).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(stats.stdout)).toEqual(expect.any(Object));
    expect(await cli('migrate', [])).toMatchObject({ code: 0, stdout: 'platform database is up to date\n' });
    // The platform kept serving throughout.
    expect(platform.child.exitCode).toBeNull();
  }, 240_000);

  it.each(Object.keys(CLIS) as (keyof typeof CLIS)[])(
    'npm run %s -- --help prints usage without a stack trace',
    async (name) => {
      const r = await cli(name, ['--help']);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^usage: /);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    },
    120_000,
  );

  it('a second npm start on the same DATA_DIR exits 1 naming the running one, no stack trace', async () => {
    const second = spawnPlatform({
      ...env,
      ERP_PORT: String(await freePort()),
      LANDING_PORT: String(await freePort()),
      LOCAL_PROVIDERS: 'off',
    });
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain(`is already open in process ${platform.child.pid}`);
    expect(second.output()).not.toMatch(/\n\s+at /);
  }, 120_000);

  it('a bad argument prints one error line and the usage, no stack trace', async () => {
    const r = await cli('restapi', ['key', 'create', '--bogus']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: .*--bogus/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  }, 120_000);
});
