/**
 * Steps shared by the payments walkthroughs on the real platform with `npm start`'s stand-ins: the
 * tenant takes cards (its Stripe account connected at the stand-in, its ERP charging 8.25 % sales
 * tax), its accounting connected (the stand-in approves at once), a card typed on the stand-in's
 * hosted page, and what the stand-ins' console says they received.
 */
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

import { waitUntil } from '../support/real-platform.js';
import type { RealSession } from './real-session.js';

export const cents = (major: number) => Math.round(major * 100);

/**
 * A's owner connects the company's Stripe account (the stand-in's onboarding) and A's ERP charges a
 * sales tax (8.25 % unless told); answers the ERP tax's id.
 */
export async function tenantTakesCards(s: RealSession, taxPercent = 8.25): Promise<number> {
  const { a } = s.p;
  const c = await s.p.api(a.owner.token, 'POST', `/api/tenants/${a.id}/payments/connect`, {});
  expect(c.status, JSON.stringify(c.body)).toBe(200);
  await fetch(c.body.onboarding_url as string, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'business_name=Acme+Blinds',
    redirect: 'manual',
  });
  await waitUntil('charges enabled', async () => {
    const r = await s.p.api(a.owner.token, 'GET', `/api/tenants/${a.id}/payments`);
    return r.body.account?.charges_enabled ? true : undefined;
  });
  const erp = await s.p.erpOf(a);
  const tax = await erp.create('account.tax', {
    name: `Sales tax ${taxPercent}%`,
    amount: taxPercent,
    amount_type: 'percent',
    type_tax_use: 'sale',
  });
  const [company] = await erp.search('res.company', [], { limit: 1, order: 'sequence, id' });
  await erp.write('res.company', [company!], { account_sale_tax_id: tax });
  return tax;
}

/**
 * A's owner connects the accounting stand-in `npm start` set up for A: the control plane's Connect
 * gives the provider's authorize URL, the stand-in approves at once and sends the browser to the ERP
 * host's callback, which finishes it (as the Settings → Integrations screen does in a new tab).
 */
export async function tenantConnectsAccounting(s: RealSession): Promise<void> {
  const { a } = s.p;
  await waitUntil('accounting configured for A', async () => {
    const v = await s.p.api(a.owner.token, 'GET', `/api/tenants/${a.id}/integrations`);
    return v.body.accounting?.state && v.body.accounting.state !== 'not_configured' ? true : undefined;
  });
  const start = await s.p.api(a.owner.token, 'POST', `/api/tenants/${a.id}/integrations/accounting/connect`);
  expect(start.status, JSON.stringify(start.body)).toBe(200);
  const page = await s.browser.newPage();
  await page.goto(start.body.authorize_url as string);
  await page.waitForSelector('text=Accounting connected');
  await page.close();
  await waitUntil('accounting connected', async () => {
    const v = await s.p.api(a.owner.token, 'GET', `/api/tenants/${a.id}/integrations`);
    return v.body.accounting?.state === 'connected' ? true : undefined;
  });
}

/**
 * The operator maps an ERP tax of A's to the provider's tax type (what `npm run integrations --
 * accounting set --tenant <slug>` stores): without it a taxed invoice is held back as needs_attention.
 */
export async function mapTax(s: RealSession, erpTaxId: number, taxType: string): Promise<void> {
  const r = await s.p.db.query(
    `UPDATE accounting_connections SET tax_types = tax_types || jsonb_build_object($2::text, $3::text) WHERE tenant_id = $1`,
    [s.p.a.id, String(erpTaxId), taxType],
  );
  expect(r.rowCount).toBe(1);
}

/** A card typed on the stand-in's hosted checkout page, and "Pay". */
export async function payWithCard(page: Page, card: string): Promise<void> {
  await page.getByLabel('Card number').fill(card);
  await page.getByLabel('Expiry (MM / YY)').fill('12 / 40');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: /^Pay / }).click();
}

export interface ConsoleInvoice {
  id: string;
  number: string;
  total: number;
  amount_due: number;
  status: string;
}

/** What the stand-ins' console received: the accounting organisations' invoices and the mail. */
export async function standIns(s: RealSession): Promise<{
  accounting: { organisation: string; invoices: ConsoleInvoice[] }[];
  mail: { to: string; subject: string; links: string[] }[];
}> {
  return (await fetch(`${s.p.localConsole!}/`)).json() as never;
}

/**
 * The accounting stand-in's copy of an ERP invoice of A's, once the sync has sent it (the provider
 * numbers its own invoices: the sync's link table says which is ours) and `ready` holds.
 */
export function providerInvoice(
  s: RealSession,
  erpInvoiceId: number,
  ready: (i: ConsoleInvoice) => boolean = () => true,
): Promise<ConsoleInvoice> {
  return waitUntil(`invoice ${erpInvoiceId} at the accounting stand-in`, async () => {
    const link = await s.p.db.query<{ provider_invoice_id: string }>(
      `SELECT provider_invoice_id FROM accounting_invoices WHERE tenant_id = $1 AND erp_invoice_id = $2`,
      [s.p.a.id, erpInvoiceId],
    );
    const id = link.rows[0]?.provider_invoice_id;
    if (!id) return undefined;
    const found = (await standIns(s)).accounting.flatMap((o) => o.invoices).find((i) => i.id === id);
    return found && ready(found) ? found : undefined;
  }).catch(async (e: unknown) => {
    // On failure, say what the sync did: its jobs and what the stand-in holds.
    const jobs = await s.p.db.query(
      `SELECT topic, status, last_error, result FROM outbox WHERE topic LIKE 'accounting.%' ORDER BY id`,
    );
    const held = (await standIns(s)).accounting.flatMap((o) => o.invoices);
    throw new Error(`${(e as Error).message}\n${JSON.stringify({ held, jobs: jobs.rows })}`);
  });
}
