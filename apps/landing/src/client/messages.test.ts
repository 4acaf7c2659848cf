import { describe, expect, it } from 'vitest';

import { loadContent } from '../site/content.loader.js';
import { sitePages } from '../site/site.routes.js';
import { FORMATS } from './checks.js';
import { FIELD_MESSAGES, fieldMessage, FORM_MESSAGES, formMessage } from './messages.js';

describe('the visitor message catalogue', () => {
  it('words a missing name for a person, not as a schema error', () => {
    expect(fieldMessage('name', 'required')).toBe('Please enter your name.');
    // An empty string is a missing answer too; unknown rules fall back to the field's message.
    expect(fieldMessage('name', 'min_length')).toBe('Please enter your name.');
    expect(fieldMessage('zip', 'some_new_rule')).toBe(
      'Please enter a 5-digit ZIP code, like 80211 (or ZIP+4, like 80211-1234).',
    );
    expect(fieldMessage('email', 'required_one_of')).toBe(fieldMessage('phone', 'required_one_of'));
    expect(fieldMessage('nickname', 'format')).toBe('Please check this answer.');
  });

  it('every message is a sentence for a person: capital first letter, full stop, no schema words', () => {
    const all = [...Object.values(FIELD_MESSAGES).flatMap((m) => Object.values(m)), ...Object.values(FORM_MESSAGES)];
    for (const m of all) {
      expect(m, m).toMatch(/^[A-Z].*[.?]$/);
      expect(m, m).not.toMatch(/invalid input|expected|undefined|received|regex|string/i);
    }
  });

  it('has a message for every field a site form shows', () => {
    const pages = sitePages(loadContent());
    const fields = new Set(
      pages.flatMap((p) => [...p.page.body.value.matchAll(/data-field="([^"]+)"/g)].map((m) => m[1]!)),
    );
    expect([...fields].sort()).toEqual(['email', 'message', 'name', 'phone', 'products', 'subject', 'zip']);
    for (const f of fields) expect(FIELD_MESSAGES[f], f).toBeDefined();
  });

  it('form-level messages by problem code, status and network failure, with the phone filled in', () => {
    expect(formMessage('RATE_LIMITED', 429, '(303) 555-0142')).toMatch(/^You have sent several requests/);
    expect(formMessage('CAPTCHA_REJECTED', 403, '(303) 555-0142')).toContain('call us at (303) 555-0142.');
    expect(formMessage('DATABASE_UNAVAILABLE', 503, '(303) 555-0142')).toMatch(/^Our system is busy/);
    expect(formMessage(undefined, 0, '')).toMatch(/^We could not reach our server/);
  });
});

describe('client checks by what a field means', () => {
  it('a ZIP is 5 digits or ZIP+4', () => {
    for (const ok of ['80211', '80211-1234']) expect(FORMATS.zip!(ok), ok).toBe(true);
    for (const bad of ['abc', '8021', '802111', '80211-12', 'ABCDE', '80211 1234x'])
      expect(FORMATS.zip!(bad), bad).toBe(false);
  });

  it('a phone number has its area code (or a +country code)', () => {
    for (const ok of ['(303) 555-0142', '303.555.0142', '1 303 555 0142', '+44 20 7946 0958'])
      expect(FORMATS.phone!(ok), ok).toBe(true);
    for (const bad of ['555-0142', 'call me', '0123456789', '(103) 555-0142', '303-555-01422', '+1 23'])
      expect(FORMATS.phone!(bad), bad).toBe(false);
  });

  it('an email has a name, an @ and a domain with a dot', () => {
    for (const ok of ['ann@example.com', 'a.b+c@mail.example.co']) expect(FORMATS.email!(ok), ok).toBe(true);
    for (const bad of ['ann', 'ann@', 'ann@example', 'ann @example.com', '@example.com'])
      expect(FORMATS.email!(bad), bad).toBe(false);
  });
});
