/**
 * The frontend against the control-plane stand-in (test/support/control-standin.ts) and one Chromium,
 * for a test file: started before its tests (with the stand-in seeded), closed after them.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

import { ControlStandin } from '../support/control-standin.js';
import { startTestFrontend, type TestFrontend } from '../support/frontend-harness.js';
import { launchChromium } from './chromium.js';

export const OLGA_OFFICE = {
  id: 'u-office',
  email: 'office@acme.test',
  name: 'Olga Office',
  role: 'office',
  password: 'office pass 1',
};

export interface StandinSession {
  control: ControlStandin;
  fe: TestFrontend;
  browser: Browser;
}

/** `user`: who signs in (default: the stand-in's technician); `seed`: what the stand-in holds first. */
export function useStandinSession(
  user?: ConstructorParameters<typeof ControlStandin>[0],
  seed?: (control: ControlStandin) => void,
): StandinSession {
  const s: Partial<StandinSession> = {};
  beforeAll(async () => {
    s.control = new ControlStandin(user);
    await s.control.start();
    seed?.(s.control);
    [s.fe, s.browser] = await Promise.all([startTestFrontend(s.control.url), launchChromium()]);
  });
  afterAll(async () => {
    await s.browser?.close();
    await s.fe?.close();
    await s.control?.close();
  });
  return s as StandinSession;
}

/** Two technicians with a job each, the office's day the dispatch tests start from. */
export function seedTwoTechnicians(control: ControlStandin): void {
  control.technicians.push({ id: 'u-t1', name: 'Tess Tech' }, { id: 'u-t2', name: 'Theo Tech' });
  control.addJob({ id: 'd1', technician: { id: 'u-t1', name: 'Tess Tech' } });
  control.addJob({
    id: 'd2',
    technician: { id: 'u-t2', name: 'Theo Tech' },
    customer: { id: 'p2', name: 'Bea Buyer', phone: '', email: '' },
  });
}
