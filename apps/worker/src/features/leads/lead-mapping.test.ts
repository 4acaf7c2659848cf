/** How a submission becomes ERP values: lead name, an escaped description with its marker, attribution fields. */
import { describe, expect, it } from 'vitest';

import { estimatePayload, helpdeskPayload } from '../../../test/support/payloads.js';
import { leadName, leadValues, partnerValues, referenceMarker, ticketValues, xmlIdName } from './lead-mapping.js';

const refs = { partnerId: 7, tagIds: [3, 4] };
const STRUCTURED = [
  'x_form_source',
  'x_form_magnet_popup',
  'x_gclid',
  'x_gbraid',
  'x_wbraid',
  'x_utm_term',
  'x_utm_content',
  'x_lp_slug',
];
const UTM = ['source_id', 'medium_id', 'campaign_id'];
const fullAttribution = {
  gclid: 'G-123',
  gbraid: 'GB-1',
  wbraid: 'WB-1',
  utm_source: 'google',
  utm_medium: 'cpc',
  utm_campaign: 'spring',
  utm_term: 'roller shades',
  utm_content: 'ad-a',
  lp_slug: 'spring-sale',
};

describe('lead name', () => {
  it('names the products the visitor picked, then the contact', () => {
    const p = estimatePayload({ products: ['roller-shades', 'vertical-blinds'], contact: { name: 'Jane Doe' } });
    expect(leadName(p)).toBe('Roller Shades, Vertical Blinds – Jane Doe');
  });

  it('says "Callback request" for a phone callback, whatever the products', () => {
    const p = estimatePayload({
      formSource: 'home_popup_exit_phone1',
      products: ['roller-shades'],
      contact: { name: 'Al' },
    });
    expect(p.tags).toContain('PHONE CALLBACK');
    expect(leadName(p)).toBe('Callback request – Al');
  });

  it('says "Estimate request" when no product was picked, and stays within 250 characters', () => {
    expect(leadName(estimatePayload({ products: [], contact: { name: 'Al' } }))).toBe('Estimate request – Al');
    expect(leadName(estimatePayload({ products: [], contact: { name: 'x'.repeat(400) } }))).toHaveLength(250);
  });
});

describe('description', () => {
  it('shows the message as escaped HTML paragraphs: a <script> in it is text, not markup', () => {
    const p = estimatePayload({ message: 'Hi <script>alert("x")</script>\nline two\n\nP&S: it\'s urgent' });
    const html = String(leadValues(p, refs, false).description);
    expect(html).not.toContain('<script>');
    expect(html).toContain(
      '<p>Hi &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;<br>line two</p><p>P&amp;S: it&#39;s urgent</p>',
    );
  });

  it('escapes what the visitor filled in the attribution fields too', () => {
    const p = estimatePayload({ attribution: { lp_slug: '"><img src=x onerror=alert(1)>' } });
    const html = String(leadValues(p, refs, false).description);
    expect(html).not.toContain('<img');
    expect(html).toContain('<li>Landing page: &quot;&gt;&lt;img src=x onerror=alert(1)&gt;</li>');
  });

  it('lists products, ZIP, form, campaign and GPC, and ends with the submission marker', () => {
    const p = estimatePayload({ products: ['roller-shades'], attribution: fullAttribution, gpc: true });
    const html = String(leadValues(p, refs, false).description);
    for (const item of [
      'Products: Roller Shades',
      'ZIP: 90210',
      'Form: product-roller-shades_inline',
      'Campaign: google / cpc / spring',
      'Global Privacy Control: on',
    ])
      expect(html).toContain(`<li>${item}`);
    expect(html.endsWith(`<p>${referenceMarker(p.submissionId)}</p>`)).toBe(true);
    expect(referenceMarker(p.submissionId)).toBe(`platform-submission:${p.submissionId}`);
  });

  it('a helpdesk ticket carries the escaped message, the sender and the marker', () => {
    const p = helpdeskPayload({
      message: '<b>broken</b>',
      contact: { name: 'John', email: 'john@example.com', phone: null },
    });
    const v = ticketValues(p, 9, 1);
    expect(v).toMatchObject({
      name: p.subject,
      partner_id: 9,
      team_id: 1,
      partner_name: 'John',
      partner_email: 'john@example.com',
    });
    expect(v.description).toContain('<p>&lt;b&gt;broken&lt;/b&gt;</p>');
    expect(v.description).toContain('<li>From: John &lt;john@example.com&gt;</li>');
    expect(v.description).toContain(referenceMarker(p.submissionId));
  });
});

describe('lead values', () => {
  it('carries the contact, partner and tags; empty contact fields are false', () => {
    const p = estimatePayload({ contact: { name: 'Jane', email: null, phone: '555 0100', zip: null } });
    expect(leadValues(p, refs, false)).toMatchObject({
      type: 'lead',
      contact_name: 'Jane',
      email_from: false,
      phone: '555 0100',
      zip: false,
      partner_id: 7,
      tag_ids: [[6, 0, [3, 4]]],
    });
    expect(partnerValues(p.contact)).toEqual({ name: 'Jane', email: false, phone: '555 0100', zip: false });
  });

  it('writes no structured attribution field when the switch is off, even with attribution present', () => {
    const p = estimatePayload({ formSource: 'gallery_magnet_lookbook_popup', attribution: fullAttribution });
    const v = leadValues(p, { ...refs, utm: { sourceId: 1, mediumId: 2, campaignId: 3 } }, false);
    for (const key of [...STRUCTURED, ...UTM]) expect(v).not.toHaveProperty(key);
  });

  it('writes every structured field and the UTM records when the switch is on', () => {
    const p = estimatePayload({ formSource: 'gallery_magnet_lookbook_popup', attribution: fullAttribution });
    const v = leadValues(p, { ...refs, utm: { sourceId: 11, mediumId: 12, campaignId: 13 } }, true);
    expect(v).toMatchObject({
      x_form_source: 'gallery_magnet_lookbook_popup',
      x_form_magnet_popup: 'gallery_magnet_lookbook_popup',
      x_gclid: 'G-123',
      x_gbraid: 'GB-1',
      x_wbraid: 'WB-1',
      x_utm_term: 'roller shades',
      x_utm_content: 'ad-a',
      x_lp_slug: 'spring-sale',
      source_id: 11,
      medium_id: 12,
      campaign_id: 13,
    });
  });

  it('with the switch on, missing values are false; an inline magnet is not a magnet popup', () => {
    const v = leadValues(estimatePayload({ formSource: 'home_magnet_pricing' }), refs, true);
    for (const key of STRUCTURED.filter((k) => k !== 'x_form_source')) expect(v[key]).toBe(false);
    expect(v.x_form_source).toBe('home_magnet_pricing');
    expect(v).not.toHaveProperty('source_id'); // no UTM ids resolved: the many2ones are left alone
  });

  it('with the switch on, an LP v2 form gives its slug when the page sent no lp_slug', () => {
    const v = leadValues(estimatePayload({ formSource: 'lp-spring-sale_hero' }), refs, true);
    expect(v).toMatchObject({
      x_form_source: 'lp-spring-sale_hero',
      x_lp_slug: 'spring-sale',
      x_form_magnet_popup: false,
    });
  });
});

describe('external id', () => {
  it('is the submission id without dashes', () => {
    expect(xmlIdName('0f8fad5b-d9cb-469f-a165-70867728950e')).toBe('submission_0f8fad5bd9cb469fa16570867728950e');
  });
});

describe('address from the ZIP code', () => {
  it('a US ZIP (or ZIP+4) gives city, state and country; a Canadian code its province; anything else nothing', async () => {
    const { placeOfZip } = await import('./postal-address.js');
    expect(placeOfZip('80211')).toEqual({
      zip: '80211',
      city: 'Denver',
      countryCode: 'US',
      stateCode: 'CO',
      stateName: null,
    });
    expect(placeOfZip(' 78701-1234 ')).toMatchObject({ zip: '78701-1234', city: 'Austin', stateCode: 'TX' });
    expect(placeOfZip('k1a 0b1')).toMatchObject({
      zip: 'K1A 0B1',
      countryCode: 'CA',
      stateName: 'Ontario',
      city: null,
    });
    for (const none of ['00000', 'SW1A 1AA', '', null, undefined]) expect(placeOfZip(none)).toBeUndefined();
  });

  it('puts the resolved city, state and country on the lead and the new partner, and nothing unresolved', () => {
    const address = { city: 'Denver', stateId: 13, countryId: 233 };
    const p = estimatePayload({ contact: { zip: '80211' } });
    expect(leadValues(p, { ...refs, address }, false)).toMatchObject({
      zip: '80211',
      city: 'Denver',
      state_id: 13,
      country_id: 233,
    });
    expect(partnerValues(p.contact, address)).toMatchObject({
      zip: '80211',
      city: 'Denver',
      state_id: 13,
      country_id: 233,
    });
    const bare = leadValues(p, { ...refs, address: { city: null, stateId: false, countryId: 233 } }, false);
    expect(bare).toMatchObject({ country_id: 233 });
    expect(bare).not.toHaveProperty('state_id');
    expect(bare).not.toHaveProperty('city');
    expect(leadValues(p, refs, false)).not.toHaveProperty('country_id');
  });
});
