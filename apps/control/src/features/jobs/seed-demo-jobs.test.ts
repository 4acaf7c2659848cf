/** The demo seed: three jobs of one technician on one day, once however often it runs. */
import { afterAll, beforeAll, expect, it } from 'vitest';

import { type JobsKit, startJobsKit } from './jobs.test-support.js';
import { seedDemoJobs } from './seed-demo-jobs.js';

let kit: JobsKit;
beforeAll(async () => {
  kit = await startJobsKit();
}, 120_000);
afterAll(async () => kit?.close());

it("seeds the technician's three jobs of the day with customers, addresses and windows, once", async () => {
  const t = await kit.tenant('seed-a', 'starter');
  await kit.erpFor(t.id);
  const tech = await kit.member(t.id, 'technician');
  const ids = await seedDemoJobs(kit.deps, t.id, tech.principal.userId, '2026-11-25');
  expect(await seedDemoJobs(kit.deps, t.id, tech.principal.userId, '2026-11-25')).toEqual(ids);
  const list = (await kit.app.inject({ url: '/jobs?date=2026-11-25', headers: kit.auth(tech.token) })).json();
  expect(list.items.map((j: { id: string }) => j.id)).toEqual(ids);
  expect(list.items.map((j: { windows: unknown[] }) => j.windows.length)).toEqual([2, 3, 1]);
  expect(list.items[1]).toMatchObject({
    customer: { name: 'Marcus Ortega' },
    address: { city: 'Denver', state: 'CO' },
    stage: { key: 'scheduled' },
  });
});
