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
    expect(html).toContain('<strong><a href="/office/jobs/j1">FSO00007</a></strong>');
    expect(html).toContain('<strong><a href="/office/jobs/j2">Wendy Web</a></strong>');
    expect(html).toContain('Needs scheduling (2)');
  });

  it('badges a measuring or service visit, and leaves installs (the most) unbadged', () => {
    const html = boardView(
      '2026-11-27',
      [],
      [job({ id: 'm', kind: 'measure' }), job({ id: 's', kind: 'service' }), job({ id: 'i', kind: 'install' })],
      [],
      '09:00',
    );
    expect(html.match(/class="pill kind">[A-Za-z]+</g)).toEqual([
      'class="pill kind">Measure<',
      'class="pill kind">Service<',
    ]);
  });

  it('badges an install whose windows have all arrived as ready to fit, and no other', () => {
    const html = boardView(
      '2026-11-27',
      [],
      [job({ id: 'r', kind: 'install', ready_to_fit: true }), job({ id: 'w', kind: 'install', ready_to_fit: false })],
      [],
      '09:00',
    );
    expect(html.match(/Ready to fit/g)).toHaveLength(1);
    expect(html).toMatch(/office\/jobs\/r">[^]*?Ready to fit[^]*?office\/jobs\/w/);
  });

  it('offers a done or cancelled job no control the control plane would refuse, and a new one no way back', () => {
    const at = { scheduled_start: '2026-11-27T15:00:00Z', scheduled_end: '2026-11-27T17:00:00Z' };
    const techs = [{ id: 't1', name: 'Terry Tech' }];
    const done = job({ id: 'done', stage: { name: 'Completed', key: 'done' }, technician: techs[0]!, ...at });
    const cancelled = job({ id: 'gone', stage: { name: 'Cancelled', key: 'cancelled' }, technician: techs[0]!, ...at });
    const scheduled = job({ id: 'open', stage: { name: 'Scheduled', key: 'scheduled' }, technician: techs[0]!, ...at });
    const html = boardView('2026-11-27', [done, cancelled, scheduled], [job({ id: 'new' })], techs, '09:00');
    for (const id of ['done', 'gone']) {
      expect(html).not.toContain(`data-reschedule="${id}"`);
      expect(html).not.toContain(`data-unschedule="${id}"`);
      expect(html).not.toContain(`data-assign="${id}"`);
    }
    expect(html).toContain('data-reschedule="open"');
    expect(html).toContain('data-unschedule="open"');
    expect(html).toContain('data-reschedule="new"');
    expect(html).not.toContain('data-unschedule="new"');
  });
});
