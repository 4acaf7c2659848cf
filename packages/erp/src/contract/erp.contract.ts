/**
 * The ERP contract: behaviour every `Erp` must show, stated as vitest tests. It runs against the
 * embedded ERP over JSON-RPC and in process (apps/erp/test/contract/) and can run against a live Odoo 15 through
 * the JSON-RPC adapter, so the stand-in cannot drift from the real protocol unnoticed.
 * It only uses models the platform needs and that a plain Odoo 15 with `crm` has.
 */
import { AppError, type ErrorCode } from '@platform/kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Erp } from '../erp.port.js';

export interface ErpContractSubject {
  erp: Erp;
  /** The same ERP and login with a wrong secret; the bad-credential case is skipped without it. */
  erpWithWrongSecret?: Erp;
  teardown(): Promise<void>;
}

export function defineErpContract(name: string, setup: () => Promise<ErpContractSubject>): void {
  describe(`ERP contract: ${name}`, () => {
    let subject: ErpContractSubject;
    let erp: Erp;
    const marker = `ctr${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
    const created: Array<[string, number]> = [];

    const create = async (model: string, values: Record<string, unknown>): Promise<number> => {
      const id = await erp.create(model, values);
      created.push([model, id]);
      return id;
    };

    // Setting up may start an ERP on a new database (a minute under load on PGlite) or reach a live Odoo.
    beforeAll(async () => {
      subject = await setup();
      erp = subject.erp;
    }, 180_000);

    afterAll(async () => {
      // Best effort, so a run against a shared Odoo leaves little behind.
      for (const [model, id] of created.reverse()) await erp?.unlink(model, [id]).catch(() => undefined);
      await subject?.teardown();
    });

    it('reports an Odoo 15 version and protocol 1', async () => {
      const v = await erp.version();
      expect(v.serverVersion).toMatch(/^15\.0/);
      expect(v.serverSerie).toBe('15.0');
      expect(v.protocolVersion).toBe(1);
    });

    it('authenticates the configured login to a stable positive uid', async () => {
      const uid = await erp.authenticate();
      expect(Number.isInteger(uid) && uid > 0).toBe(true);
      expect(await erp.authenticate()).toBe(uid);
    });

    it('creates a partner and reads it back, with false for empty values', async () => {
      const id = await create('res.partner', { name: `${marker} Jane`, email: `${marker}@example.com` });
      expect(Number.isInteger(id) && id > 0).toBe(true);
      const rows = await erp.read('res.partner', [id], ['name', 'email', 'phone', 'parent_id']);
      expect(rows).toEqual([
        { id, name: `${marker} Jane`, email: `${marker}@example.com`, phone: false, parent_id: false },
      ]);
    });

    it('reads a many2one as [id, display name]', async () => {
      const company = await create('res.partner', { name: `${marker} Co`, is_company: true });
      const person = await create('res.partner', { name: `${marker} Pat`, parent_id: company });
      const [row] = await erp.read('res.partner', [person], ['parent_id']);
      expect(row?.parent_id).toEqual([company, `${marker} Co`]);
    });

    it('applies many2many command tuples [6,0,ids] and [4,id,0]', async () => {
      const [t1, t2, t3] = [
        await create('crm.tag', { name: `${marker} t1` }),
        await create('crm.tag', { name: `${marker} t2` }),
        await create('crm.tag', { name: `${marker} t3` }),
      ];
      const lead = await create('crm.lead', { name: `${marker} lead`, tag_ids: [[6, 0, [t1, t2]]] });
      const tagsOf = async () => {
        const [row] = await erp.read('crm.lead', [lead], ['tag_ids']);
        return [...(row?.tag_ids as number[])].sort((a, b) => a - b);
      };
      expect(await tagsOf()).toEqual([t1, t2]);
      expect(await erp.write('crm.lead', [lead], { tag_ids: [[4, t3, 0]] })).toBe(true);
      expect(await tagsOf()).toEqual([t1, t2, t3]);
      expect(await erp.write('crm.lead', [lead], { tag_ids: [[6, 0, [t3]]] })).toBe(true);
      expect(await tagsOf()).toEqual([t3]);
    });

    describe('search', () => {
      const ids: Record<string, number> = {};
      beforeAll(async () => {
        for (const k of ['a', 'b', 'c']) ids[k] = await create('res.partner', { name: `${marker} s-${k}` });
      });
      const like: [string, string, unknown] = ['name', 'ilike', `${marker} s-`];

      it('honours domain, order, limit and offset', async () => {
        expect(await erp.search('res.partner', [like], { order: 'name desc' })).toEqual([ids.c, ids.b, ids.a]);
        expect(await erp.search('res.partner', [like], { order: 'name desc', limit: 2, offset: 1 })).toEqual([
          ids.b,
          ids.a,
        ]);
        expect(await erp.search('res.partner', [like], { order: 'name asc', limit: 1 })).toEqual([ids.a]);
      });

      it('supports prefix operators and `in`', async () => {
        const either = await erp.search('res.partner', ['|', ['id', '=', ids.a], ['id', '=', ids.c], like], {
          order: 'id asc',
        });
        expect(either).toEqual([ids.a, ids.c].sort((x, y) => x! - y!));
        const notB = await erp.search('res.partner', [like, '!', ['id', 'in', [ids.b]]], { order: 'id asc' });
        expect(notB).toEqual([ids.a, ids.c].sort((x, y) => x! - y!));
      });

      it('search_read returns the requested fields plus id', async () => {
        const rows = await erp.searchRead('res.partner', [like], { fields: ['name'], order: 'name asc' });
        expect(rows).toEqual(['a', 'b', 'c'].map((k) => ({ id: ids[k], name: `${marker} s-${k}` })));
      });

      it('search_count counts the matches', async () => {
        expect(await erp.searchCount('res.partner', [like])).toBe(3);
        expect(await erp.searchCount('res.partner', [['name', '=', `${marker} nobody`]])).toBe(0);
      });
    });

    it('writes values and answers true', async () => {
      const id = await create('res.partner', { name: `${marker} w` });
      expect(await erp.write('res.partner', [id], { name: `${marker} w2`, phone: '+1 512 555 0100' })).toBe(true);
      expect(await erp.read('res.partner', [id], ['name', 'phone'])).toEqual([
        { id, name: `${marker} w2`, phone: '+1 512 555 0100' },
      ]);
    });

    it('unlinks records: true, gone from search, reading one is rejected', async () => {
      const id = await erp.create('res.partner', { name: `${marker} u` });
      expect(await erp.unlink('res.partner', [id])).toBe(true);
      expect(await erp.search('res.partner', [['id', '=', id]])).toEqual([]);
      await expectCode(erp.read('res.partner', [id], ['name']), 'ERP_REJECTED');
    });

    it('describes fields with fields_get', async () => {
      const f = await erp.fieldsGet('res.partner', ['type', 'string']);
      expect(f.name?.type).toBe('char');
      expect(f.parent_id?.type).toBe('many2one');
    });

    it('resolves an external id through ir.model.data', async () => {
      const rows = await erp.searchRead(
        'ir.model.data',
        [
          ['module', '=', 'base'],
          ['name', '=', 'main_company'],
        ],
        {
          fields: ['model', 'res_id'],
          limit: 1,
        },
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]?.model).toBe('res.company');
      const [company] = await erp.read('res.company', [rows[0]?.res_id as number], ['name']);
      expect(typeof company?.name).toBe('string');
    });

    describe('errors', () => {
      it('a wrong secret is ERP_AUTH_FAILED', async (ctx) => {
        if (!subject.erpWithWrongSecret) return ctx.skip();
        await expectCode(subject.erpWithWrongSecret.authenticate(), 'ERP_AUTH_FAILED');
        await expectCode(subject.erpWithWrongSecret.searchCount('res.partner', []), 'ERP_AUTH_FAILED');
      });

      it('an unknown field is ERP_REJECTED (ValueError)', async () => {
        const e = await expectCode(
          erp.create('res.partner', { name: `${marker} x`, [`${marker}_nope`]: 1 }),
          'ERP_REJECTED',
        );
        expect(e.details?.name).toBe('builtins.ValueError');
        await expectCode(erp.search('res.partner', [[`${marker}_nope`, '=', 1]]), 'ERP_REJECTED');
      });

      it('an invalid user action is ERP_REJECTED (ValidationError: recursive partner hierarchy)', async () => {
        const id = await create('res.partner', { name: `${marker} loop` });
        const e = await expectCode(erp.write('res.partner', [id], { parent_id: id }), 'ERP_REJECTED');
        expect(e.details?.name).toBe('odoo.exceptions.ValidationError');
        expect(typeof e.details?.message).toBe('string');
      });

      it('a missing required field is ERP_REJECTED (ValidationError from the NOT NULL violation)', async () => {
        const e = await expectCode(erp.create('crm.tag', {}), 'ERP_REJECTED');
        expect(e.details?.name).toBe('odoo.exceptions.ValidationError');
      });

      it('a private method is ERP_REJECTED (AccessError)', async () => {
        const e = await expectCode(erp.call('res.partner', '_compute_display_name', [[]]), 'ERP_REJECTED');
        expect(e.details?.name).toBe('odoo.exceptions.AccessError');
      });

      it('an unknown model is ERP_REJECTED', async () => {
        await expectCode(erp.search(`${marker}.model`, []), 'ERP_REJECTED');
      });
    });
  });
}

async function expectCode(p: Promise<unknown>, code: ErrorCode): Promise<AppError> {
  let caught: unknown;
  try {
    await p;
  } catch (e) {
    caught = e;
  }
  expect(caught, `expected ${code}`).toBeInstanceOf(AppError);
  expect((caught as AppError).code).toBe(code);
  return caught as AppError;
}
