/** The portal-link email of quote S00042 to Jane Roe, rendered from the real template: what the mail tests send. */
import { renderTemplate } from '@platform/email';
import type { EmailMessage } from '@platform/providers';

export function quoteLinkEmail(portalUrl: string, phone: string | null = null): EmailMessage {
  const brand = {
    companyName: 'Acme Shades',
    logoUrl: null,
    primaryColor: '#1F4E79',
    secondaryColor: '#F2F2F2',
    phone,
    email: null,
    address: null,
  };
  const r = renderTemplate('portal_quote_link', brand, { customerName: 'Jane Roe', quoteNumber: 'S00042', portalUrl });
  return {
    id: '0b7d8a52-6f2e-4a55-9c1e-3b2f8d7e1a10',
    tenantId: '5f0c8a52-6f2e-4a55-9c1e-3b2f8d7e1a10',
    key: 'quote-S00042',
    lane: 'transactional',
    from: { address: 'quotes@localhost', name: 'Acme Shades' },
    to: { address: 'jane@example.com', name: 'Jane Roe' },
    subject: r.subject,
    text: r.text,
    html: r.html,
    tags: ['portal_quote_link'],
  };
}
