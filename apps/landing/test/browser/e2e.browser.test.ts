/**
 * End to end: the whole platform on embedded defaults (ERP + landing + worker), a real browser
 * submits site forms, and the leads appear in the ERP with the right form_source, tags and
 * attribution (structured attribution switched on, so the x_ fields are written).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { DESKTOP, launchChromium, PHONE } from './chromium.js';

const PLATFORM = new URL('../../../platform/src/platform.ts', import.meta.url);

interface Erp {
  searchRead(model: string, domain: unknown[], opts?: { fields?: string[] }): Promise<Record<string, unknown>[]>;
}
interface Platform {
  landingUrl: string;
  erpUrl: string;
  erp: Erp;
  close(): Promise<void>;
}

const LEAD_FIELDS = [
  'name',
  'email_from',
  'phone',
  'zip',
  'x_form_source',
  'x_gclid',
  'x_lp_slug',
  'x_utm_term',
  'tag_ids',
  'source_id',
  'campaign_id',
];

describe('site -> landing -> ERP (startPlatform)', () => {
  let platform: Platform;
  let browser: Browser;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'site-e2e-'));
    const mod = (await import(PLATFORM.href)) as {
      startPlatform(env: Record<string, string | undefined>): Promise<Platform>;
    };
    [platform, browser] = await Promise.all([
      mod.startPlatform({
        DATA_DIR: dataDir,
        LANDING_PORT: '0',
        CONTROL_PORT: '0',
        FRONTEND_PORT: '0',
        ERP_PORT: '0',
        SITE_NAME: 'Test',
        LOG_LEVEL: 'silent',
        ERP_STRUCTURED_ATTRIBUTION: 'on',
      }),
      launchChromium(),
    ]);
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    await platform?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  async function leadFor(email: string): Promise<Record<string, unknown>> {
    for (let i = 0; i < 120; i++) {
      const rows = await platform.erp.searchRead('crm.lead', [['email_from', '=', email]], { fields: LEAD_FIELDS });
      if (rows[0]) return rows[0];
      await new Promise((r) => setTimeout(r, 500));
    }
    throw new Error(`no crm.lead for ${email} after 60 s`);
  }
  async function tagNames(lead: Record<string, unknown>): Promise<string[]> {
    const ids = lead.tag_ids as number[];
    const tags = await platform.erp.searchRead('crm.tag', [['id', 'in', ids]], { fields: ['name'] });
    return tags.map((t) => String(t.name)).sort();
  }

  it('a product-page inline form creates a lead tagged SITE: TEST with its form_source and click ids', async () => {
    const page = await (await browser.newContext(DESKTOP)).newPage();
    await page.goto(
      `${platform.landingUrl}/products/roller-shades?gclid=E2E-GCLID-1&utm_source=google&utm_medium=cpc&utm_campaign=e2e-fall&utm_term=roller%20shades`,
    );
    await page.fill('#estimate-form-name', 'Eve Endtoend');
    await page.fill('#estimate-form-email', 'eve.e2e@example.com');
    await page.fill('#estimate-form-phone', '(303) 555-0177');
    await page.fill('#estimate-form-zip', '80211');
    await page.click('#estimate-form button[type=submit]');
    await page.waitForSelector('.form-success:not([hidden])', { timeout: 30_000 });
    const lead = await leadFor('eve.e2e@example.com');
    expect(lead).toMatchObject({
      x_form_source: 'product-roller-shades_inline',
      x_gclid: 'E2E-GCLID-1',
      x_utm_term: 'roller shades',
    });
    expect(await tagNames(lead)).toEqual(['SITE: TEST']);
  });

  it('the LP v2 popup on a phone creates a lead tagged LP: <SLUG> with the hero value', async () => {
    const page = await (await browser.newContext(PHONE)).newPage();
    await page.goto(`${platform.landingUrl}/lp/motorized-blinds?gbraid=E2E-GBRAID`);
    await page.click('a[data-open-popup] >> nth=0');
    await page.fill('#popup-form-name', 'Lou Landing');
    await page.fill('#popup-form-email', 'lou.e2e@example.com');
    await page.click('#popup-form button[type=submit]');
    await page.waitForSelector('#estimate-popup .form-success:not([hidden])', { timeout: 30_000 });
    const lead = await leadFor('lou.e2e@example.com');
    expect(lead).toMatchObject({ x_form_source: 'lp-motorized-blinds_hero', x_lp_slug: 'motorized-blinds' });
    expect(await tagNames(lead)).toEqual(['LP: MOTORIZED-BLINDS']);
  });

  it('the L2 popup forced by QA records <template>_force', async () => {
    const page = await (await browser.newContext(DESKTOP)).newPage();
    await page.goto(`${platform.landingUrl}/about?lp_popup=force`);
    await page.waitForSelector('#estimate-popup[open]');
    await page.fill('#popup-form-name', 'Quinn Force');
    await page.fill('#popup-form-email', 'quinn.e2e@example.com');
    await page.click('#popup-form button[type=submit]');
    await page.waitForSelector('#estimate-popup .form-success:not([hidden])', { timeout: 30_000 });
    const lead = await leadFor('quinn.e2e@example.com');
    expect(lead).toMatchObject({ x_form_source: 'about_popup_force' });
    expect(await tagNames(lead)).toEqual(['SITE: TEST']);
  });

  it('serves the site health endpoint', async () => {
    const r = await fetch(`${platform.landingUrl}/health`);
    expect(r.status).toBe(200);
    expect(await r.json()).toMatchObject({ status: 'ok' });
  });
});
