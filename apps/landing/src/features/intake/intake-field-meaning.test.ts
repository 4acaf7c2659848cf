import { parseOrThrow } from '@platform/http-kit';
import { AppError } from '@platform/kernel';
import { describe, expect, it } from 'vitest';

import { estimateSchema, helpdeskSchema } from './intake.schemas.js';

const base = { name: 'Jane Roe', email: 'jane@example.com' };
const issuesOf = (schema: typeof estimateSchema | typeof helpdeskSchema, body: unknown) => {
  try {
    parseOrThrow(schema, body);
    return [];
  } catch (e) {
    return (e as AppError).fieldIssues ?? [];
  }
};

/** Values each field refuses (rule format) and accepts; `helpdesk`: the helpdesk form checks the field too. */
const FIELDS = [
  {
    field: 'zip',
    refused: ['abc', '123', 'ZZZZZ', '8020', '802021', '80202-12', 'W1A 1AA'],
    accepted: ['80202', '80202-1234', 'K1A 0B1', 'k1a0b1', ' 80211 '],
    helpdesk: false,
  },
  {
    field: 'phone',
    refused: ['1111111111', '555 0100', '(000) 000-0000', '+1 555 010 2030', '12345678901234', 'call me'],
    accepted: ['(303) 555-0100', '303.555.0100', '+1 303 555 0100', '+44 20 7946 0958', '+33 1 23 45 67 89'],
    helpdesk: true,
  },
  {
    field: 'email',
    refused: ['jane', 'jane@', '@example.com', 'jane@example', 'jane doe@example.com', 'jane@@example.com'],
    accepted: [],
    helpdesk: true,
  },
];
const refusals = FIELDS.flatMap((f) => f.refused.map((v) => [f.field, v, f.helpdesk] as const));
const acceptances = FIELDS.flatMap((f) => f.accepted.map((v) => [f.field, v] as const));

describe('intake fields are checked for what they mean', () => {
  it.each(refusals)('refuses the %s %j (rule format)', (field, value, helpdesk) => {
    const format = [expect.objectContaining({ field, rule: 'format' })];
    expect(issuesOf(estimateSchema, { ...base, [field]: value })).toEqual(format);
    if (helpdesk)
      expect(issuesOf(helpdeskSchema, { ...base, [field]: value, subject: 's', message: 'm' })).toEqual(format);
  });

  it.each(acceptances)('accepts the %s %j', (field, value) => {
    expect(issuesOf(estimateSchema, { ...base, [field]: value })).toEqual([]);
  });
});
