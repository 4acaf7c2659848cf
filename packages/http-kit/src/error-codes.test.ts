import { readFileSync } from 'node:fs';

import { AppError, ERROR_CODES } from '@platform/kernel';
import { describe, expect, it } from 'vitest';

import { ERROR_STATUS } from './error-status.map.js';
import { toProblem } from './problem.js';

const doc = readFileSync(new URL('../../../docs/errors.md', import.meta.url), 'utf8');
const documented = new Map([...doc.matchAll(/^\| `([A-Z_]+)` \| (\d{3}) \|/gm)].map((m) => [m[1]!, Number(m[2])]));

describe('error codes', () => {
  it.each([...ERROR_CODES])('%s is documented in docs/errors.md with the status it is mapped to', (code) => {
    expect(documented.has(code), `${code} missing from docs/errors.md`).toBe(true);
    expect(documented.get(code)).toBe(ERROR_STATUS[code].status);
  });

  it('documents no code that does not exist', () => {
    expect([...documented.keys()].filter((c) => !(ERROR_CODES as readonly string[]).includes(c))).toEqual([]);
  });

  it('builds problem bodies that carry the code, status and field errors but never the cause', () => {
    const err = new AppError('VALIDATION_FAILED', 'bad', {
      cause: new Error('SELECT secret FROM vault'),
      fieldIssues: [{ field: 'email', rule: 'format', message: 'must be an email address' }],
    });
    const p = toProblem(err, { instance: '/api/estimate', requestId: 'r-1' });
    expect(p).toMatchObject({
      status: 422,
      code: 'VALIDATION_FAILED',
      type: 'urn:platform:problem:validation-failed',
      request_id: 'r-1',
    });
    expect(p.errors).toEqual([{ field: 'email', rule: 'format', message: 'must be an email address' }]);
    expect(JSON.stringify(p)).not.toContain('vault');
  });
});
