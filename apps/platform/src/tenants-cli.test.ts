/**
 * `npm run tenants` from outside, as an operator uses it: with `npm start` running on PGlite, two
 * `create` calls each print one JSON line and get their own ERP database (seen through the ERP's
 * JSON-RPC `db.list`) with their owner; creating again answers the same tenant; and with the
 * platform stopped, `create` still works (the CLI serves the embedded ERP itself for the command).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { openDb } from '@platform/db';
import { createOdooRpcClient } from '@platform/erp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  freePort,
  type PlatformProcess,
  runCli,
  startPlatform,
  stopPlatform,
  waitFor,
} from '../test/support/platform-harness.js';

let dataDir: string;
let env: Record<string, string>;
let platform: PlatformProcess | undefined;
let erpUrl: string;
let controlUrl: string;

const cli = (script: string, args: string[]) => runCli(script, args, env, { timeoutMs: 180_000 });
const tenants = (...args: string[]) => cli('apps/platform/src/tenants.cli.ts', args);
const create = (slug: string) =>
  tenants(
    'create',
    '--slug',
    slug,
    '--name',
    `Blinds ${slug}`,
    '--plan',
    'free',
    '--owner-email',
    `owner@${slug}.test`,
    '--owner-password',
    'correct horse battery',
  );

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'platform-tenants-'));
  const [erpPort, landingPort, controlPort] = [await freePort(), await freePort(), await freePort()];
  erpUrl = `http://127.0.0.1:${erpPort}`;
  controlUrl = `http://127.0.0.1:${controlPort}`;
  env = {
    DATA_DIR: dataDir,
    ERP_PORT: String(erpPort),
    ERP_HOST: '127.0.0.1',
    ERP_URL: erpUrl,
    LANDING_PORT: String(landingPort),
    LANDING_HOST: '127.0.0.1',
    CONTROL_PORT: String(controlPort),
    CONTROL_HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
  };
  // The platform serves the ERP itself: ERP_URL would tell it an outside ERP is in use.
  const { ERP_URL: _outside, ...platformEnv } = env;
  platform = await startPlatform(platformEnv, landingPort);
}, 240_000);
afterAll(() => stopPlatform(platform, dataDir));

describe('npm run tenants', () => {
  const made: Record<string, { id: string; slug: string; erp_db: string }> = {};

  it('creates two tenants while npm start runs, each printing one JSON line, each with its own ERP database', async () => {
    for (const slug of ['north-blinds', 'south-shades']) {
      const r = await create(slug);
      expect(r.code, r.stderr).toBe(0);
      const lines = r.stdout.split('\n').filter(Boolean);
      expect(lines).toHaveLength(1);
      made[slug] = JSON.parse(lines[0]!);
      expect(Object.keys(made[slug]!).sort()).toEqual(['erp_db', 'id', 'slug']);
      expect(made[slug]).toMatchObject({ slug, erp_db: `t_${slug.replace('-', '_')}` });
    }
    const dbs = (await createOdooRpcClient({ url: erpUrl }).call('db', 'list', [])) as string[];
    expect(dbs).toEqual(expect.arrayContaining(['t_north_blinds', 't_south_shades']));
    const again = await create('north-blinds');
    expect(JSON.parse(again.stdout)).toEqual(made['north-blinds']);
    const listed = (await tenants('list')).stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    expect(listed).toEqual(
      expect.arrayContaining([expect.objectContaining({ slug: 'south-shades', status: 'active', plan: 'free' })]),
    );
  }, 400_000);

  it("lets each owner sign in over the API; A's lead reaches A's ERP database only, and B gets 404 for A", async () => {
    const post = async (path: string, body: unknown, token?: string) =>
      fetch(`${controlUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      });
    const login = async (slug: string) => {
      const r = await post('/auth/login', { email: `owner@${slug}.test`, password: 'correct horse battery' });
      expect(r.status).toBe(200);
      const body = (await r.json()) as { access_token: string; refresh_token: string; expires_in: number };
      expect(body.expires_in).toBeGreaterThan(0);
      return body.access_token;
    };
    const a = made['north-blinds']!;
    const [ta, tb] = [await login('north-blinds'), await login('south-shades')];
    const lead = await post(
      '/leads',
      { tenant_id: a.id, source: 'api', name: 'Ada North', email: 'ada@example.com' },
      ta,
    );
    expect(lead.status).toBe(201);
    // B may not post for A, nor read A's plan.
    expect(
      (await post('/leads', { tenant_id: a.id, source: 'api', name: 'Eve', email: 'eve@example.com' }, tb)).status,
    ).toBe(404);
    expect(
      (await fetch(`${controlUrl}/api/tenants/${a.id}/plan`, { headers: { authorization: `Bearer ${tb}` } })).status,
    ).toBe(404);
    const leadsOf = async (token: string) =>
      (
        (await (await fetch(`${controlUrl}/crm/leads`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
          items: { contact_name: string }[];
        }
      ).items.map((l) => l.contact_name);
    await waitFor("the lead in A's ERP", async () => (await leadsOf(ta)).includes('Ada North') || undefined, 60_000);
    expect(await leadsOf(tb)).not.toContain('Ada North');
  }, 200_000);

  it("adds members within the plan's limits and seeds a technician's demo day, seen when they sign in", async () => {
    const member = (email: string, role: string) =>
      tenants('add-member', 'north-blinds', '--email', email, '--role', role, '--password', 'correct horse battery');
    const tech = await member('tech@north-blinds.test', 'technician');
    expect(tech.code, tech.stderr).toBe(0);
    expect(JSON.parse(tech.stdout)).toMatchObject({ role: 'technician', created: true });
    expect(JSON.parse((await member('tech@north-blinds.test', 'technician')).stdout).created).toBe(false);
    // Free: two users (the owner and the technician), so a third is refused with the plan's code.
    const third = await member('office@north-blinds.test', 'office');
    expect(third.code).toBe(1);
    expect(third.stderr).toContain('PLAN_LIMIT_REACHED');
    const day = new Date().toISOString().slice(0, 10);
    const seeded = await tenants('seed-demo', 'north-blinds', '--technician-email', 'tech@north-blinds.test');
    expect(seeded.code, seeded.stderr).toBe(0);
    expect(seeded.stdout.split('\n').filter(Boolean)).toHaveLength(3);
    const login = await fetch(`${controlUrl}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'tech@north-blinds.test', password: 'correct horse battery' }),
    });
    const { access_token } = (await login.json()) as { access_token: string };
    const jobs = (await (
      await fetch(`${controlUrl}/jobs?date=${day}`, { headers: { authorization: `Bearer ${access_token}` } })
    ).json()) as { items: { customer: { name: string } }[] };
    expect(jobs.items).toHaveLength(3);
    const again = await tenants('seed-demo', 'north-blinds', '--technician-email', 'tech@north-blinds.test');
    expect(again.code).toBe(0);
    const owner = await tenants('seed-demo', 'north-blinds', '--technician-email', 'owner@north-blinds.test');
    expect(owner.code).toBe(1);
    expect(owner.stderr).toContain('No technician');
  }, 300_000);

  it('refuses a bad slug with a usage error naming the field, printing nothing on stdout', async () => {
    const r = await tenants(
      'create',
      '--slug',
      'Bad Slug',
      '--name',
      'x',
      '--plan',
      'free',
      '--owner-email',
      'a@b.test',
      '--owner-password',
      'correct horse battery',
    );
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('slug');
  }, 200_000);

  it('keeps the owners, and creates a tenant without npm start running', async () => {
    platform!.child.kill('SIGTERM');
    await platform!.exited;
    platform = undefined;
    const r = await create('west-shutters');
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ slug: 'west-shutters', erp_db: 't_west_shutters' });
    const erpDbs = await cli('apps/erp/src/erp.cli.ts', ['db', 'list']);
    expect(erpDbs.stdout).toContain('t_west_shutters');
    const db = await openDb({ dataDir, name: 'platform' });
    try {
      const owners = await db.query<{ slug: string; email: string }>(
        `SELECT t.slug, u.email FROM tenant_memberships m JOIN users u ON u.id = m.user_id JOIN tenants t ON t.id = m.tenant_id
          WHERE m.role = 'owner' ORDER BY t.slug`,
      );
      expect(owners.rows).toEqual([
        { slug: 'north-blinds', email: 'owner@north-blinds.test' },
        { slug: 'south-shades', email: 'owner@south-shades.test' },
        { slug: 'west-shutters', email: 'owner@west-shutters.test' },
      ]);
    } finally {
      await db.close();
    }
  }, 400_000);
});
