/**
 * The accounting stand-in's console page in Chromium at 375 and 1280 px, used as a person would: add a
 * credit note to an invoice (its amount due drops), remove it (the amount comes back), rename the
 * contact; each read back through the provider's API; axe finds nothing on the page.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { AccountingAuth } from '@platform/providers';
import { adapters, connect } from '@platform/providers/accounting/accounting.test-helpers.js';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { axe, DESKTOP, launchChromium, PHONE_375 } from '../../../frontend/test/browser/chromium.js';
import { type LocalProviders, startLocalProviders } from '../../src/local-providers.js';
import { loadPlatformConfig } from '../../src/platform.config.js';

const SHOTS = join(process.cwd(), 'test-results', 'platform');
const dataDir = mkdtempSync(join(tmpdir(), 'acct-console-'));
let local: LocalProviders;
let consoleUrl: string;
let browser: Browser;
let auth: AccountingAuth;

beforeAll(async () => {
  local = (await startLocalProviders(loadPlatformConfig({ DATA_DIR: dataDir })))!;
  consoleUrl = await local.bind('http://127.0.0.1:9');
  const { clientId, clientSecret } = local.credentials.accounting;
  const t = await connect(adapters(local.accounting!).oauth, 'http://localhost:8069/acct/callback', {
    clientId,
    clientSecret,
  });
  auth = { accessToken: t.accessToken, tenantId: local.accounting!.tenants[0]!.tenantId };
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await local?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function invoiceFor(name: string) {
  const api = adapters(local.accounting!).api;
  const { contactId } = await api.upsertContact(auth, { name, contactNumber: `ERP-${name}` });
  const inv = await api.createInvoice(auth, {
    contactId,
    reference: `JOB-${name}`,
    date: '2026-11-02',
    lineAmountTypes: 'Exclusive',
    status: 'AUTHORISED',
    lines: [{ description: 'Roller blind', quantity: 1, unitAmount: 122.61, accountCode: '200' }],
  });
  return { contactId, invoiceId: inv.invoiceId, read: () => api.getInvoice(auth, inv.invoiceId) };
}

describe('the accounting stand-in console page', () => {
  for (const [label, device] of [
    ['375px', PHONE_375],
    ['1280px', DESKTOP],
  ] as const) {
    it(`adds and removes a credit note and renames a contact (${label})`, async () => {
      const name = `Buyer ${label}`;
      const invoice = await invoiceFor(name);
      const ctx = await browser.newContext({ ...device, bypassCSP: true }); // axe is injected as a script
      const page = await ctx.newPage();
      await page.goto(`${consoleUrl}/acct`);
      const card = page.locator('article.card', { hasText: name });
      expect(await card.textContent()).toContain('due 134.87');

      await card.locator('form[action="/acct/credit-notes"] input[name="amount"]').fill('34.87');
      await card.locator('form[action="/acct/credit-notes"] button').click();
      await page.waitForURL(`${consoleUrl}/acct`);
      expect(await card.textContent()).toContain('due 100.00');
      expect(await card.textContent()).toMatch(/Credit note CN-\d{4}: 34\.87/);
      expect((await invoice.read()).amountDue).toBe(100);
      expect(await axe(page)).toEqual([]);
      await page.screenshot({ path: join(SHOTS, `acct-credited-${label}.png`), fullPage: true });

      await card.locator('form[action="/acct/credit-notes/remove"] button').click();
      await page.waitForURL(`${consoleUrl}/acct`);
      expect(await card.textContent()).toContain('due 134.87');
      expect((await invoice.read()).amountDue).toBe(134.87);

      const contact = page.locator('form[action="/acct/contacts/edit"]', {
        has: page.locator(`input[name="name"][value="${name}"]`),
      });
      await contact.locator('input[name="name"]').fill(`${name} Renamed`);
      await contact.locator('button').click();
      await page.waitForURL(`${consoleUrl}/acct`);
      expect(await page.locator(`input[name="name"][value="${name} Renamed"]`).count()).toBe(1);
      await page.screenshot({ path: join(SHOTS, `acct-after-${label}.png`), fullPage: true });
      await ctx.close();
    });
  }
});
