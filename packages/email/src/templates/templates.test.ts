/** Templates: every message renders in text and HTML with the tenant's branding, safely escaped. */
import { describe, expect, it } from 'vitest';

import { brandOf } from './brand.js';
import { renderTemplate, sampleData } from './render.js';
import { TEMPLATE_NAMES } from './templates.js';

const brand = brandOf(
  {
    tenant_id: 't',
    company_name: 'Acme <b>Blinds</b> & Co',
    logo_url: 'javascript:alert(1)',
    favicon_url: null,
    primary_color: '#123ABC',
    secondary_color: null,
    phone: '555',
    email: 'o@acme.test',
    address: null,
    helpdesk_enabled: true,
    portal_enabled: true,
    email_settings: {},
  },
  'Fallback',
);

describe('email templates', () => {
  it.each(TEMPLATE_NAMES)("%s renders text and HTML with the tenant's name and colour", (name) => {
    const r = renderTemplate(name, brand, sampleData(name));
    expect(r.subject.length).toBeGreaterThan(5);
    expect(r.text).toContain('Acme <b>Blinds</b> & Co'); // plain text is not HTML-escaped
    expect(r.html).toContain('Acme &lt;b&gt;Blinds&lt;/b&gt; &amp; Co');
    expect(r.html).not.toContain('<b>Blinds');
    expect(r.html).toContain('#123ABC');
  });

  it('escapes what callers put in and refuses script links', () => {
    const r = renderTemplate('lead_acknowledgement', brand, {
      name: '<img src=x onerror=alert(1)>',
      summary: '"quoted" & <i>',
    });
    expect(r.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(r.html).toContain('&quot;quoted&quot; &amp; &lt;i&gt;');
    expect(r.html).not.toContain('<img src=x');
    expect(r.html).not.toContain('javascript:'); // a non-http logo URL is dropped
    expect(() => renderTemplate('password_reset', brand, { resetUrl: 'javascript:alert(1)' })).toThrow(
      expect.objectContaining({ code: 'VALIDATION_FAILED' }),
    );
  });

  it('names the bad field when data is missing, and refuses unknown templates', () => {
    try {
      renderTemplate('portal_quote_link', brand, { customerName: 'Jane' });
      expect.unreachable();
    } catch (e) {
      expect((e as { fieldIssues: { field: string }[] }).fieldIssues.map((f) => f.field)).toEqual(
        expect.arrayContaining(['quoteNumber', 'portalUrl']),
      );
    }
    expect(() => renderTemplate('nope', brand, {})).toThrow(
      expect.objectContaining({ code: 'EMAIL_TEMPLATE_UNKNOWN' }),
    );
  });
});
