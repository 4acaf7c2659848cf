/** GET /jobs pages in the ERP: one page of the filtered, ordered orders, whatever the tenant's history. */
import type { ErpRecord } from '@platform/erp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import type { Principal } from '../auth/principal.js';
import { type JobsKit, newJob, startJobsKit } from './jobs.test-support.js';

let kit: JobsKit;
let a: { id: string; token: string; owner: Principal };
let erpA: Awaited<ReturnType<JobsKit['erpFor']>>;
const ids: string[] = [];
const at = (h: number) => `2026-12-10T${String(h).padStart(2, '0')}:00:00Z`;

beforeAll(async () => {
  kit = await startJobsKit();
  a = await kit.tenant('paging-a', 'professional');
  erpA = await kit.erpFor(a.id);
  for (const h of [8, 9, 10, 11, 12]) {
    const r = await kit.app.inject({
      method: 'POST',
      url: '/jobs',
      headers: kit.auth(a.token),
      payload: newJob({ scheduled_start: at(h), scheduled_end: at(h + 1) }),
    });
    ids.push(r.json().id);
  }
  // An order the office made in the ERP itself, on the same day: not a platform job.
  const [made] = await erpA.erp.searchRead('fsm.order', [], { fields: ['location_id', 'team_id'], limit: 1 });
  await erpA.erp.create('fsm.order', {
    location_id: (made!.location_id as [number, string])[0],
    team_id: (made!.team_id as [number, string])[0],
    scheduled_date_start: '2026-12-10 07:00:00',
  });
}, 120_000);
afterAll(async () => kit?.close());

const list = async (query: string) =>
  (await kit.app.inject({ url: `/jobs?${query}`, headers: kit.auth(a.token) })).json() as {
    items: { id: string }[];
    total: number;
  };

describe('the job list, paged in the ERP', () => {
  it("answers page 2 with the day's third and fourth jobs and counts only the platform's jobs", async () => {
    // Page 1 holds them all (no count needed); page 2 of 2 has more after it (the ERP counts them).
    expect((await list('date=2026-12-10')).items.map((j) => j.id)).toEqual(ids);
    const page = await list('date=2026-12-10&page=2&page_size=2');
    expect(page.items.map((j) => j.id)).toEqual(ids.slice(2, 4));
    expect(page.total).toBe(5);
    expect((await list('date=2026-12-10&page=3&page_size=2')).items.map((j) => j.id)).toEqual(ids.slice(4));
  });

  it('asks the ERP for that page only: no filter by every job id, the offset, the page size and one row more', async () => {
    const calls: { domain: unknown[]; opts: { limit?: number; offset?: number } | undefined }[] = [];
    const models: string[] = [];
    const real = { searchRead: erpA.erp.searchRead.bind(erpA.erp), read: erpA.erp.read.bind(erpA.erp) };
    const spies = [
      vi.spyOn(erpA.erp, 'searchRead').mockImplementation(async (model, domain, opts) => {
        models.push(model);
        if (model === 'fsm.order') calls.push({ domain, opts });
        return real.searchRead(model, domain, opts) as Promise<ErpRecord[]>;
      }),
      vi.spyOn(erpA.erp, 'read').mockImplementation(async (model, ids, fields) => {
        models.push(model);
        return real.read(model, ids, fields);
      }),
    ];
    try {
      await list('date=2026-12-10&page=2&page_size=2');
    } finally {
      for (const s of spies) s.mockRestore();
    }
    // The orders, their locations and customers; the stages stay cached per tenant ERP client.
    expect(models).toEqual(['fsm.order', 'fsm.location', 'res.partner']);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.opts).toMatchObject({ limit: 3, offset: 2 });
    expect(calls[0]!.domain.filter((leaf) => Array.isArray(leaf) && leaf[0] === 'id')).toEqual([]);
  });
});
