/**
 * Issue 26's Website screen against the real platform: A's owner edits the hero and the FAQ (adds,
 * moves and removes entries), adds a gallery image whose missing alt text is said beside its field,
 * saves the draft, publishes, publishes again and rolls back to the first version; the control
 * plane's view agrees at each step, and Preview opens the unpublished draft on the tenant's host (the
 * landing host, as the proxy routes it), noindex, while the public site keeps the live version. Before that, the owner sets the site's Meta pixel and Conversions
 * API token on the Integrations screen (a bad pixel id said beside its field). Axe 0 and no sideways scroll at 1280 and 375 px.
 */
import type { WebsiteEditorView } from '@platform/contracts/website.js';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';

import { DESKTOP } from './chromium.js';
import { signInToOffice } from './office-session.js';
import { bothWidthsChecker, useRealPlatform } from './real-session.js';

const s = useRealPlatform();
const check = bothWidthsChecker('website');

describe("the owner's website", () => {
  it('edits the hero and FAQ, saves, publishes, and rolls back', async () => {
    const { a } = s.p;
    const live = async () =>
      ((await s.p.api(a.owner.token, 'GET', `/api/tenants/${a.id}/website`)).body as WebsiteEditorView).published;
    const ctx = await s.browser.newContext(DESKTOP);
    const page = await signInToOffice(s, ctx, a, '/office/settings/integrations', a.owner.email);
    // The site's own Meta pixel and Conversions API token, set on the Integrations screen.
    await page.fill('#meta-pixel', '12ab');
    await page.click('#meta-form button[type=submit]');
    await page.waitForSelector('#meta-pixel[aria-invalid="true"]');
    await page.fill('#meta-pixel', '123456789012345');
    await page.fill('#meta-token', `EAAB${'z'.repeat(40)}`);
    await page.click('#meta-form button[type=submit]');
    await page.waitForSelector('#office-msg:has-text("Meta pixel saved.")');
    expect(await page.textContent('#meta-state')).toContain('pixel 123456789012345 and sends conversions');
    expect(await page.inputValue('#meta-token')).toBe('');
    await check(page, 'meta-pixel');
    await page.click('nav[aria-label="Settings"] >> text=Website');
    await page.waitForSelector('h1:has-text("Settings: Website")');
    expect(await page.textContent('#site-live')).toContain('Nothing published yet');
    expect(await page.getAttribute('#view-site', 'href')).toMatch(/^https?:\/\//);
    await check(page, 'draft');

    await page.fill('#hero-title', 'Blinds for Denver homes');
    // Two default questions; a third is added, moved up, and the first removed.
    const question = (i: number, q: string) =>
      page.waitForFunction(
        ({ id, v }: { id: string; v: string }) => (document.querySelector(id) as HTMLInputElement | null)?.value === v,
        { id: `#faq-q-${i}`, v: q },
      );
    await page.click('button[data-faq-add]');
    await page.fill('#faq-q-2', 'Do you install on weekends?');
    await page.fill('#faq-a-2', 'Yes, on Saturdays.');
    await page.click('button[data-faq-up="2"]');
    await question(1, 'Do you install on weekends?');
    await page.click('button[data-faq-remove="0"]');
    await question(0, 'Do you install on weekends?');
    expect(await page.locator('li[data-faq-item]').count()).toBe(2);

    const png = await sharp({ create: { width: 1800, height: 900, channels: 3, background: '#2a6' } })
      .png()
      .toBuffer();
    await page.setInputFiles('#gallery-file', { name: 'shutters.png', mimeType: 'image/png', buffer: png });
    await page.waitForSelector('#gal-alt-0');
    await page.click('#website-form button[type=submit]');
    await page.waitForSelector('#gal-alt-0[aria-invalid="true"]');
    await page.fill('#gal-alt-0', 'White shutters in a living room');
    await page.click('#website-form button[type=submit]');
    await page.waitForSelector('#office-msg:has-text("Draft saved.")');

    await page.click('button[data-publish]');
    await page.waitForSelector('#office-msg:has-text("Published: version 1 is live.")');
    const first = await live();
    expect(first?.content.hero.title).toBe('Blinds for Denver homes');
    expect(first?.content.faq.map((f) => f.q)).toEqual(['Do you install on weekends?', 'How long does it take?']);
    expect(first?.content.gallery[0]).toMatchObject({
      width: 1600,
      height: 800,
      alt: 'White shutters in a living room',
    });

    // Preview: the draft as the site shows it, before it is published.
    await page.fill('#hero-title', 'Shutters for Denver homes');
    await page.click('button[data-preview]');
    await page.waitForSelector('#preview-link');
    const link = new URL((await page.getAttribute('#preview-link', 'href'))!);
    await check(page, 'preview-link');
    expect(link.pathname).toBe('/_preview');
    // Without the proxy running, the landing host is reached on its own port (the proxy's path split).
    const site = new URL(s.p.websiteOf(a));
    const preview = await ctx.newPage();
    const shown = await preview.goto(`${site.origin}${link.pathname}${link.search}`);
    expect(shown?.status()).toBe(200);
    expect(shown?.headers()['cache-control']).toBe('no-store');
    expect(await preview.textContent('h1')).toContain('Shutters for Denver homes');
    expect(await preview.getAttribute('meta[name="robots"]', 'content')).toBe('noindex');
    await preview.goto(site.origin);
    expect(await preview.textContent('h1')).toContain('Blinds for Denver homes');
    await preview.close();

    await page.click('button[data-publish]');
    await page.waitForSelector('#office-msg:has-text("Published: version 2 is live.")');
    expect((await live())?.content.hero.title).toBe('Shutters for Denver homes');
    await check(page, 'published');

    await page.click('button[data-rollback="1"]');
    await page.waitForSelector('#office-msg:has-text("Version 1 is live again (as version 3).")');
    expect(await page.inputValue('#hero-title')).toBe('Blinds for Denver homes');
    expect((await live())?.content.hero.title).toBe('Blinds for Denver homes');
    await check(page, 'rolled-back');
    await ctx.close();
  });
});
