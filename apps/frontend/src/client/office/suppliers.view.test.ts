import { describe, expect, it } from 'vitest';

import { suppliersHtml } from './suppliers.view.js';

const suppliers = [
  { id: 3, name: 'Blind Works', email: null },
  { id: 4, name: 'Shade Mill', email: 'orders@shade.example' },
];
const supply = (over = {}) => ({
  code: 'roller-shade',
  supplier: null,
  supplier_code: null,
  cost_minor: null,
  lead_days: null,
  ...over,
});

describe('Settings → Suppliers', () => {
  it("lists vendors, saying which have no email for orders, and shows a product's vendor and cost in major units", () => {
    const html = suppliersHtml(
      suppliers,
      [
        {
          name: 'Roller Shade',
          supply: supply({
            supplier: { id: 4, name: 'Shade Mill' },
            supplier_code: 'SM-1',
            cost_minor: 8050,
            lead_days: 10,
          }),
        },
      ],
      'USD',
    );
    expect(html).toContain('Blind Works · <em>no email: orders are not emailed</em>');
    expect(html).toContain('<option value="4" selected>Shade Mill</option>');
    expect(html).toMatch(/data-field="cost_minor"[^>]*value="80.50"/);
    expect(html).toMatch(/data-field="lead_days"[^>]*value="10"/);
    expect(html).toContain('Cost (USD)');
  });

  it('leaves an unset product blank with no vendor chosen, and whole units for a currency without cents', () => {
    const html = suppliersHtml(suppliers, [{ name: 'Wood Blind', supply: supply({ cost_minor: 9000 }) }], 'JPY', 0);
    expect(html).not.toContain(' selected>');
    expect(html).toMatch(/data-field="cost_minor"[^>]*value="9000"/);
    expect(suppliersHtml([], [], 'USD')).toContain('No suppliers yet');
  });
});
