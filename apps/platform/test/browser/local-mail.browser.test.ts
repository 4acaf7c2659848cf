/**
 * The local mail console in Chromium at 375 and 1280 px: the list shows the quote email's recipient,
 * subject and its portal link as a link; the message page shows the rendered HTML in its sandboxed
 * frame (the link inside it) and the text; axe finds nothing on either page.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createPrimarySender, emailConfigDefaults } from '@platform/email';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { axe, DESKTOP, launchChromium, PHONE_375 } from '../../../frontend/test/browser/chromium.js';
import { type LocalProviders, startLocalProviders } from '../../src/local-providers.js';
import { loadPlatformConfig } from '../../src/platform.config.js';
import { quoteLinkEmail } from '../support/quote-email.js';

const SHOTS = join(process.cwd(), 'test-results', 'platform');
const portalUrl = 'http://acme.tenants.localhost:8000/portal/quote/abc123';
const dataDir = mkdtempSync(join(tmpdir(), 'mail-console-'));
let local: LocalProviders;
let consoleUrl: string;
let browser: Browser;

beforeAll(async () => {
  local = (await startLocalProviders(loadPlatformConfig({ DATA_DIR: dataDir })))!;
  consoleUrl = await local.bind('http://127.0.0.1:9');
  const sender = createPrimarySender(emailConfigDefaults({ EMAIL_SMTP_URL: local.env.EMAIL_SMTP_URL }), {
    info: () => {},
    warn: () => {},
  });
  await sender.send({ ...quoteLinkEmail(portalUrl, '+1 303 555 0100'), tags: [] });
  await sender.close?.();
  await local.mail!.waitFor(1);
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await local?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the local mail console', () => {
  for (const [label, device] of [
    ['375px', PHONE_375],
    ['1280px', DESKTOP],
  ] as const) {
    it(`lists the quote email with its link and shows it (${label})`, async () => {
      // bypassCSP: the console's CSP forbids inline scripts, and axe is injected as one.
      const ctx = await browser.newContext({ ...device, bypassCSP: true });
      const page = await ctx.newPage();
      await page.goto(`${consoleUrl}/mail`);
      expect(await page.textContent('table')).toContain('jane@example.com');
      expect(await page.getAttribute(`table a[href="${portalUrl}"]`, 'href')).toBe(portalUrl);
      expect(await axe(page)).toEqual([]);
      await page.screenshot({ path: join(SHOTS, `mail-list-${label}.png`), fullPage: true });

      await page.click('table td a[href^="/mail/"]');
      await page.waitForSelector('h1');
      const frame = page.frameLocator('iframe[title="The message as HTML"]');
      expect(await frame.locator(`a[href="${portalUrl}"]`).count()).toBeGreaterThan(0);
      expect(await page.textContent('pre')).toContain(portalUrl);
      expect(await axe(page)).toEqual([]);
      await page.screenshot({ path: join(SHOTS, `mail-message-${label}.png`), fullPage: true });
      await ctx.close();
    });
  }
});
