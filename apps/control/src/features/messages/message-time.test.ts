/**
 * Local time without a library: quiet hours end and begin on the minute, a reminder's local hour holds
 * on both sides of a daylight-saving change (Denver and London), a wall-clock time the spring change
 * skips moves an hour on; and template substitution is safe (unknown names refused by field, values
 * inserted once as plain text).
 */
import { describe, expect, it } from 'vitest';

import { assertTemplate, fill } from './message-kinds.js';
import { instantAt, localOf, outsideQuietHours, reminderDue } from './message-time.js';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();

describe('quiet hours (21:00–08:00 local)', () => {
  it.each([
    ['20:59 goes now', '2026-03-03T03:59:00Z', '2026-03-03T03:59:00.000Z'],
    ['21:00 waits for 08:00 the next day', '2026-03-03T04:00:00Z', '2026-03-03T15:00:00.000Z'],
    ['07:59 waits a minute', '2026-03-03T14:59:00Z', '2026-03-03T15:00:00.000Z'],
    ['08:00 goes now', '2026-03-03T15:00:00Z', '2026-03-03T15:00:00.000Z'],
    ['22:30 the night clocks spring forward waits for 08:00 MDT', '2026-03-08T05:30:00Z', '2026-03-08T14:00:00.000Z'],
  ])('in Denver, %s', (_, due, sent) => {
    expect(iso(outsideQuietHours(at(due), 'America/Denver'))).toBe(sent);
  });
});

describe('the reminder’s local hour', () => {
  it.each([
    ['America/Denver', '2026-03-09T16:00:00Z', 17, '2026-03-08T23:00:00.000Z'],
    ['America/Denver', '2026-03-08T17:00:00Z', 17, '2026-03-08T00:00:00.000Z'],
    ['America/Denver', '2026-11-02T17:00:00Z', 9, '2026-11-01T16:00:00.000Z'],
    ['Europe/London', '2026-03-30T09:00:00Z', 18, '2026-03-29T17:00:00.000Z'],
    ['Europe/London', '2026-10-26T10:00:00Z', 18, '2026-10-25T18:00:00.000Z'],
  ])('in %s for %s at %i:00 is %s', (zone, start, hour, due) => {
    const ms = reminderDue(at(start), hour, zone);
    expect(iso(ms)).toBe(due);
    expect(localOf(ms, zone).hour).toBe(hour);
  });

  it('moves a wall-clock time the spring change skips an hour on', () => {
    expect(localOf(instantAt('2026-03-08', 2, 30, 'America/Denver'), 'America/Denver')).toEqual({
      day: '2026-03-08',
      hour: 3,
      minute: 30,
    });
    expect(localOf(instantAt('2026-03-29', 1, 30, 'Europe/London'), 'Europe/London')).toEqual({
      day: '2026-03-29',
      hour: 2,
      minute: 30,
    });
  });
});

describe('templates', () => {
  it('refuses an unknown placeholder naming the field, and fills known ones once as plain text', () => {
    expect(() => assertTemplate('kinds.2.sms', 'Hi {{frist_name}}')).toThrow(
      expect.objectContaining({
        code: 'VALIDATION_FAILED',
        fieldIssues: [expect.objectContaining({ field: 'kinds.2.sms' })],
      }),
    );
    expect(() => assertTemplate('kinds.2.sms', 'Hi {{ first_name }}, {{company}}')).not.toThrow();
    expect(fill('{{company}}: hi {{first_name}} {{eta}}', { company: '<b>A&B</b>', first_name: '{{company}}' })).toBe(
      '<b>A&B</b>: hi {{company}}',
    );
  });
});
