/** The dispatch board's HTML for jobs as the real /jobs answers them (a job may have no customer). */
import { describe, expect, it } from 'vitest';

import { type BoardJob, boardView, jobTitle } from './board.view.js';

const job = (over: Partial<BoardJob>): BoardJob => ({
  id: 'j1',
  name: 'FSO00007',
  customer: { name: 'Wendy Web' },
  address: { street: '12 Elm St', city: 'Denver' },
  scheduled_start: null,
  scheduled_end: null,
  stage: { name: 'New', key: 'new' },
  technician: null,
  version: '1',
  ...over,
});

describe('the dispatch board', () => {
  it('names a job made in the ERP without a customer by its order, instead of failing to draw', () => {
    const noCustomer = job({ customer: null });
    expect(jobTitle(noCustomer)).toBe('FSO00007');
    const html = boardView(
      '2026-11-27',
      [],
      [noCustomer, job({ id: 'j2' })],
      [{ id: 't1', name: 'Terry Tech' }],
      '09:00',
    );
    expect(html).toContain('<strong>FSO00007</strong>');
    expect(html).toContain('<strong>Wendy Web</strong>');
    expect(html).toContain('Needs scheduling (2)');
  });
});
