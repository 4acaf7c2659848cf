import { AppError } from '@platform/kernel';
import { describe, expect, it } from 'vitest';

import { allows, parseScopes, scopeProblem } from './scopes.js';

describe('scopes', () => {
  it('parses space- or comma-separated scopes, sorted and deduplicated', () => {
    expect(parseScopes('write:crm.lead, read:res.partner read:res.partner method:sale.order.action_confirm')).toEqual([
      'method:sale.order.action_confirm',
      'read:res.partner',
      'write:crm.lead',
    ]);
  });

  it.each([
    ['read:*', 'not a model name'],
    ['read:partner', 'not a model name'],
    ['admin', 'is not read:<model>'],
    ['write:res.users', 'cannot be exposed'],
    ['read:ir.config_parameter', 'cannot be exposed'],
    ['method:res.partner.unlink', 'only action_* and button_*'],
    ['method:res.partner._private', 'only action_* and button_*'],
    ['method:res.users.action_reset_password', 'cannot be exposed'],
  ])('refuses %s', (token, why) => {
    expect(scopeProblem(token)).toContain(why);
    expect(() => parseScopes(token)).toThrow(AppError);
  });

  it('refuses an empty scope', () => {
    expect(() => parseScopes(' ')).toThrow('At least one scope');
  });

  it('allows exactly what is granted: read does not imply write, nor write read', () => {
    const s = parseScopes('read:res.partner write:crm.lead method:sale.order.action_confirm');
    expect(allows(s, 'res.partner', 'read')).toBe(true);
    expect(allows(s, 'res.partner', 'write')).toBe(false);
    expect(allows(s, 'crm.lead', 'read')).toBe(false);
    expect(allows(s, 'sale.order', { method: 'action_confirm' })).toBe(true);
    expect(allows(s, 'sale.order', { method: 'action_cancel' })).toBe(false);
  });
});
