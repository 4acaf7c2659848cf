/**
 * A sign-up whose provisioning fails at any step leaves nothing behind (no tenant row, no ERP
 * database, no account), and the same sign-up then succeeds.
 */
import { AppError } from '@platform/kernel';
import { ErpDatabases } from '@platform/tenancy';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { MASTER } from '../tenants/tenants.test-kit.js';
import { type SignupKit, startSignupKit } from './signup.test-support.js';

let kit: SignupKit;
beforeAll(async () => {
  kit = await startSignupKit();
}, 120_000);
afterAll(async () => kit?.close());

async function leftBehind(slug: string) {
  const tenants = await kit.t.db.query('SELECT 1 FROM tenants WHERE slug = $1', [slug]);
  const users = await kit.t.db.query('SELECT 1 FROM users WHERE email = $1', [`owner@${slug}.test`]);
  const dbs = (await kit.databases.current.list()).filter((d) => d === `t_${slug.replace(/-/g, '_')}`);
  return { tenants: tenants.rows.length, users: users.rows.length, dbs: dbs.length };
}

const gone = () => new AppError('ERP_UNAVAILABLE', 'the ERP went away');

class FailsCreating extends ErpDatabases {
  override async create(): Promise<never> {
    throw gone();
  }
}
class FailsAfterCreating extends ErpDatabases {
  override async createServiceAccount(): Promise<never> {
    throw gone();
  }
}

async function failingWith(slug: string, use: () => () => void) {
  const restore = use();
  const r = await kit.signUp(kit.fields(slug));
  restore();
  return r;
}

const withDatabases = (d: ErpDatabases) => () => {
  const real = kit.databases.current;
  kit.databases.use(d);
  return () => kit.databases.use(real);
};
const erp = () => ({ url: kit.erp.url, masterPassword: MASTER, timeoutMs: 30_000 });

describe('a sign-up that fails half-way', { timeout: 120_000 }, () => {
  it('leaves nothing when the ERP database cannot be made, and works when tried again', async () => {
    const r = await failingWith('alpha-fail', withDatabases(new FailsCreating(erp())));
    expect(r.statusCode).toBe(503);
    expect(await leftBehind('alpha-fail')).toEqual({ tenants: 0, users: 0, dbs: 0 });
    expect((await kit.signUp(kit.fields('alpha-fail'))).statusCode).toBe(201);
  });

  it('drops the ERP database when its service account cannot be made', async () => {
    const r = await failingWith('bravo-fail', withDatabases(new FailsAfterCreating(erp())));
    expect(r.statusCode).toBe(503);
    expect(await leftBehind('bravo-fail')).toEqual({ tenants: 0, users: 0, dbs: 0 });
    expect((await kit.signUp(kit.fields('bravo-fail'))).statusCode).toBe(201);
  });

  it('undoes everything when the last transaction fails (routing, subdomain, owner, email)', async () => {
    const r = await failingWith('charlie-fail', () => {
      const spy = vi
        .spyOn(kit.deps.signup.verification, 'begin')
        .mockRejectedValueOnce(new AppError('INTERNAL', 'the email outbox refused'));
      return () => spy.mockRestore();
    });
    expect(r.statusCode).toBe(500);
    expect(await leftBehind('charlie-fail')).toEqual({ tenants: 0, users: 0, dbs: 0 });
    const routing = await kit.t.db.query(
      `SELECT 1 FROM tenant_domains WHERE domain = 'charlie-fail.tenants.localhost'`,
    );
    expect(routing.rows).toHaveLength(0);
    const again = await kit.signUp(kit.fields('charlie-fail'));
    expect(again.statusCode).toBe(201);
    expect(await leftBehind('charlie-fail')).toEqual({ tenants: 1, users: 1, dbs: 1 });
  });

  it('lets one of two racing sign-ups with the same email win, and leaves nothing of the other', async () => {
    const [a, b] = await Promise.all([
      kit.signUp(kit.fields('delta-race', 'racer@example.test')),
      kit.signUp(kit.fields('echo-race', 'racer@example.test')),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([201, 409]);
    const lost = a.statusCode === 409 ? 'delta-race' : 'echo-race';
    expect((a.statusCode === 409 ? a : b).json()).toMatchObject({ code: 'EMAIL_TAKEN' });
    expect((await kit.t.db.query('SELECT 1 FROM tenants WHERE slug = $1', [lost])).rows).toHaveLength(0);
    expect((await kit.databases.current.list()).filter((d) => d === `t_${lost.replace('-', '_')}`)).toEqual([]);
  });
});
