import { describe, expect, it } from 'vitest';

import { escapeHtml } from './escape-html.js';

describe('escapeHtml', () => {
  it('turns every character that could open markup or close an attribute into an entity', () => {
    expect(escapeHtml(`<a href="x" title='y'>Tom & Jerry</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;Tom &amp; Jerry&lt;/a&gt;',
    );
  });

  it('prints null and undefined as nothing and numbers as text', () => {
    expect(escapeHtml(undefined)).toBe('');
    expect(escapeHtml(null)).toBe('');
    expect(escapeHtml(12.5)).toBe('12.5');
  });
});
