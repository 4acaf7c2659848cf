import { describe, expect, it } from 'vitest';

import type { Branding } from '../tenancy/branding.service.js';
import { type PortalQuote, quotePage } from './portal.view.js';

const branding: Branding = {
  ...{ name: 'Acme Blinds', logoUrl: null, faviconUrl: null, primary: '#1f4e79', secondary: '#f4f6f8' },
  ...{ phone: null, email: null, address: null, helpdeskEnabled: true, portalEnabled: true, currency: 'USD' },
};
const quote = (q: Partial<PortalQuote>): PortalQuote => ({
  name: 'S00042',
  state: 'sale',
  partner_name: 'Priya Raman',
  lines: [],
  amount_untaxed: 250,
  amount_tax: 21,
  amount_total: 271,
  deposit: 135.5,
  deposit_state: 'due',
  accepted: { name: 'Priya Raman', at: '2026-11-27T10:00:00.000Z' },
  ...q,
});
const render = (q: Partial<PortalQuote>) => quotePage(branding, quote(q), 'tok', '/portal.js');

describe('the portal quote page: the deposit once accepted', () => {
  it('offers "Pay deposit" with the amount when a card deposit is due', () => {
    const html = render({});
    expect(html).toContain('id="pay-deposit">Pay deposit</button>');
    expect(html).toContain('Your deposit of $135.50 is due');
    expect(html).toContain('data-deposit-state="due"');
  });

  it('says "Deposit paid" once paid, with no button', () => {
    const html = render({ deposit_state: 'paid' });
    expect(html).toContain('Deposit paid: thank you.');
    expect(html).not.toContain('pay-deposit');
  });

  it('says the office arranges it when the company takes no cards', () => {
    const html = render({ deposit_state: 'office' });
    expect(html).toContain('the office will contact you to arrange it');
    expect(html).not.toContain('pay-deposit');
  });

  it('shows no deposit block when none is asked, nor before acceptance', () => {
    expect(render({ deposit_state: 'none', deposit: 0 })).not.toMatch(/pay-deposit|Deposit paid|arrange it/);
    const sent = render({ state: 'sent', accepted: null });
    expect(sent).not.toContain('pay-deposit');
    expect(sent).toContain('Accept and sign');
  });

  it('counts the signature as the acceptance while the order waits for its deposit', () => {
    const html = render({ state: 'sent', deposit_state: 'due' });
    expect(html).toContain('This quote is accepted.');
    expect(html).toContain('id="pay-deposit">Pay deposit</button>');
    expect(html).not.toContain('Accept and sign');
  });
});
