import { createTestDb, migratePlatform, type TestDb } from '@platform/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ensureDefaultTenant } from './features/tenancy/default-tenant.repo.js';
import { runRestApiCli, type UserCheck } from './restapi.cli.js';
import { composeCredentials } from './restapi.compose.js';

let t: TestDb;
let creds: ReturnType<typeof composeCredentials>;
const users: UserCheck = async (login) => (login === 'ghost' ? false : login === 'offline' ? undefined : true);

beforeAll(async () => {
  t = await createTestDb(process.env, { migrated: true });
  await migratePlatform(t.db);
  creds = composeCredentials(t.db, await ensureDefaultTenant(t.db, 'default'));
});
afterAll(async () => t?.drop());

async function run(...argv: string[]) {
  const lines: string[] = [];
  const code = await runRestApiCli(argv, creds, users, (s) => lines.push(s));
  return { code, text: lines.join('\n') };
}

describe('npm run restapi', () => {
  it('key create prints the key once; the database holds only its hash; list and revoke', async () => {
    const { code, text } = await run(
      'key',
      'create',
      '--login',
      'admin',
      '--description',
      'zapier',
      '--scope',
      'read:res.partner write:crm.lead',
    );
    expect(code).toBe(0);
    const key = text.split('\n').at(-1)!;
    expect(key).toMatch(/^erpk_[A-Za-z0-9_-]{8}_[A-Za-z0-9_-]{43}$/);
    const dump = JSON.stringify((await t.db.query('SELECT * FROM restapi_keys')).rows);
    expect(dump).not.toContain(key);
    expect(dump).not.toContain(key.slice(14));

    const list = await run('key', 'list');
    expect(list.text).toContain('zapier');
    expect(list.text).toContain('last used never');
    expect(list.text).not.toContain(key);
    const id = list.text.split('\t')[0]!;
    expect((await run('key', 'revoke', id)).text).toBe(`API key ${id} (${key.slice(5, 13)}) revoked`);
    expect((await run('key', 'list')).text).toContain('revoked');
    await expect(run('key', 'revoke', id)).rejects.toThrow('No live API key');
  });

  it('refuses a login the ERP does not know, a blocked model and a missing description', async () => {
    await expect(
      run('key', 'create', '--login', 'ghost', '--description', 'x', '--scope', 'read:res.partner'),
    ).rejects.toThrow('no active ERP user');
    await expect(
      run('key', 'create', '--login', 'admin', '--description', 'x', '--scope', 'write:res.users'),
    ).rejects.toThrow('cannot be exposed');
    await expect(run('key', 'create', '--login', 'admin', '--scope', 'read:res.partner')).rejects.toThrow('required');
  });

  it('warns but proceeds when the ERP cannot be asked', async () => {
    const r = await run('key', 'create', '--login', 'offline', '--description', 'x', '--scope', 'read:res.partner');
    expect(r.text).toContain('warning');
    expect(r.code).toBe(0);
  });

  it('app create prints client id and secret once; list, rotate-secret, revoke; audit shows it all', async () => {
    const created = await run(
      'app',
      'create',
      '--name',
      'Field CRM',
      '--redirect-uri',
      'https://crm.example.com/cb',
      '--redirect-uri',
      'https://crm.example.com/cb/',
      '--scope',
      'read:res.partner',
    );
    expect(created.code).toBe(0);
    const secret = /client_secret: (\S+)/.exec(created.text)![1]!;
    const clientId = /client_id: +(\S+)/.exec(created.text)![1]!;
    expect(JSON.stringify((await t.db.query('SELECT * FROM restapi_oauth_apps')).rows)).not.toContain(secret);
    const list = await run('app', 'list');
    expect(list.text).toContain(clientId);
    expect(list.text).toContain('https://crm.example.com/cb https://crm.example.com/cb/');
    const id = list.text.split('\t')[0]!;
    const rotated = await run('app', 'rotate-secret', id);
    expect(await creds.apps.authenticateClient(clientId, secret)).toBeUndefined();
    expect(await creds.apps.authenticateClient(clientId, rotated.text.split('\n').at(-1)!)).toBeDefined();
    await run('app', 'revoke', id);
    const audit = (await run('audit')).text;
    for (const e of ['key_created', 'key_revoked', 'app_created', 'app_secret_rotated', 'app_revoked'])
      expect(audit).toContain(e);
  });

  it('refuses redirect URIs that are not https (except loopback) or carry a fragment', async () => {
    await expect(
      run('app', 'create', '--name', 'x', '--redirect-uri', 'http://crm.example.com/cb', '--scope', 'read:res.partner'),
    ).rejects.toThrow('https');
    await expect(
      run(
        'app',
        'create',
        '--name',
        'x',
        '--redirect-uri',
        'https://crm.example.com/cb#x',
        '--scope',
        'read:res.partner',
      ),
    ).rejects.toThrow('fragment');
  });

  it('prints usage for an unknown command', async () => {
    expect((await run('nope')).code).toBe(2);
  });
});
