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

describe('intake fields are checked for what they mean', () => {
  it.each(['abc', '123', 'ZZZZZ', '8020', '802021', '80202-12', 'W1A 1AA'])(
    'refuses the postal code %j (rule format, field zip)',
    (zip) => {
      expect(issuesOf(estimateSchema, { ...base, zip })).toEqual([
        expect.objectContaining({ field: 'zip', rule: 'format' }),
      ]);
    },
  );

  it.each(['80202', '80202-1234', 'K1A 0B1', 'k1a0b1', ' 80211 '])(
    'accepts the US ZIP or Canadian postal code %j',
    (zip) => {
      expect(issuesOf(estimateSchema, { ...base, zip })).toEqual([]);
    },
  );

  it.each(['1111111111', '555 0100', '(000) 000-0000', '+1 555 010 2030', '12345678901234', 'call me'])(
    'refuses the phone %j',
    (phone) => {
      expect(issuesOf(estimateSchema, { ...base, phone })).toEqual([
        expect.objectContaining({ field: 'phone', rule: 'format' }),
      ]);
      expect(issuesOf(helpdeskSchema, { ...base, phone, subject: 's', message: 'm' })).toEqual([
        expect.objectContaining({ field: 'phone', rule: 'format' }),
      ]);
    },
  );

  it.each(['(303) 555-0100', '303.555.0100', '+1 303 555 0100', '+44 20 7946 0958', '+33 1 23 45 67 89'])(
    'accepts the phone %j',
    (phone) => {
      expect(issuesOf(estimateSchema, { ...base, phone })).toEqual([]);
    },
  );

  it.each(['jane', 'jane@', '@example.com', 'jane@example', 'jane doe@example.com', 'jane@@example.com'])(
    'refuses the email %j',
    (email) => {
      expect(issuesOf(estimateSchema, { name: 'Jane', email })).toEqual([
        expect.objectContaining({ field: 'email', rule: 'format' }),
      ]);
      expect(issuesOf(helpdeskSchema, { name: 'Jane', email, subject: 's', message: 'm' })).toEqual([
        expect.objectContaining({ field: 'email', rule: 'format' }),
      ]);
    },
  );
});
