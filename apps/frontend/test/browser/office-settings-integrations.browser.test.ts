/**
 * Issue 24's Integrations screen against the real platform with `npm start`'s own provider stand-ins
 * (test/support/real-platform.ts, `localProviders`): A's owner finds the stand-in accounts wired to
 * the company by themselves; connects the accounting stand-in (Connect, the provider's page in a new
 * tab, the ERP's "connected" page), sees it connected, checks it with a test, and disconnects; sends a
 * test text that the SMS stand-in receives from A's line (a bad number said beside the field first)
 * and adds a line; sends a chat test that a chat stand-in records, then points chat at another space
 * with other flags (a URL on no allowed origin refused beside the field). Axe 0 and no sideways scroll
 * at 1280 and 375 px.
 */
import type { IntegrationsView } from '@platform/contracts/integrations.js';
import { describe, expect, it } from 'vitest';

import { waitUntil } from '../support/real-platform.js';
import { DESKTOP } from './chromium.js';
import { signInToOffice } from './office-session.js';
import { bothWidthsChecker, useRealPlatform } from './real-session.js';

const s = useRealPlatform({ localProviders: true });
const checkBothWidths = bothWidthsChecker('settings');

/** What the stand-ins received, from their console (as `curl $CONSOLE/` shows it). */
const received = async (): Promise<{
  sms: { contact: string; line: string; body: string }[];
  chat: { text: string }[];
}> => (await fetch(`${s.p.localConsole}/`)).json();

describe("the owner's integrations", () => {
  it('connects, tests and disconnects accounting, texts a test through SMS, and posts a chat test', async () => {
    const { a } = s.p;
    expect(s.p.localConsole, 'the local stand-ins run').toBeTruthy();
    // `npm start` gives every company its stand-in accounts within a few seconds of its creation.
    const wired = await waitUntil('the stand-in accounts wired to A', async () => {
      const r = await s.p.api(a.owner.token, 'GET', `/api/tenants/${a.id}/integrations`);
      const v = r.body as IntegrationsView;
      return v.sms.lines.length && v.accounting.state !== 'not_configured' && v.chat.configured ? v : undefined;
    });
    const line = wired.sms.lines.find((l) => l.is_default)!.phone_number;

    const ctx = await s.browser.newContext(DESKTOP);
    const page = await signInToOffice(s, ctx, a, '/office/settings/domains', a.owner.email);
    await page.click('nav[aria-label="Settings"] >> text=Integrations');
    await page.waitForSelector('h1:has-text("Settings: Integrations")');
    expect(await page.textContent('#acct-state')).toContain('“Local accounting stand-in” is not connected.');
    expect(await page.textContent('#sms-state')).toContain(`Texts go out from +${line}.`);
    expect(await page.textContent('#chat-state')).toContain('Team chat posts to http://127.0.0.1:');
    await checkBothWidths(page, 'integrations');

    // Accounting: Connect gives the provider's page; it approves and the ERP says so in that tab.
    await page.click('button[data-acct-connect]');
    const [provider] = await Promise.all([ctx.waitForEvent('page'), page.click('#acct-authorize')]);
    await provider.waitForSelector('text=Accounting connected', { timeout: 30_000 });
    await provider.close();
    await page.click('button[data-refresh]');
    await page.waitForSelector('#acct-state:has-text("Connected to Acme Blinds")');
    expect(await page.textContent('#acct-state')).toContain('Last sync: nothing synced yet.');
    await page.click('button[data-acct-test]');
    await page.waitForSelector('#acct-test-out.ok:has-text("The provider answered a read for Acme Blinds")');

    // SMS: a number that is none is said beside the field; a real one reaches the SMS stand-in.
    await page.fill('#sms-to', 'call me');
    await page.click('#sms-test-form button[type=submit]');
    await page.waitForSelector('#sms-to[aria-invalid="true"]');
    expect((await page.textContent('#sms-to-err'))?.length).toBeGreaterThan(0);
    await page.fill('#sms-to', '(303) 555-0142');
    await page.click('#sms-test-form button[type=submit]');
    await page.waitForSelector('#sms-test-out.ok:has-text("Sent: the provider took it")', { timeout: 30_000 });
    const text = (await received()).sms.find((m) => m.contact === '13035550142');
    expect(text).toMatchObject({ line, body: expect.stringContaining('SMS is working') });
    await page.fill('#line-name', 'Support desk');
    await page.fill('#line-phone', '303 555 0177');
    await page.selectOption('#line-type', 'support');
    await page.click('#line-form button[type=submit]');
    await page.waitForSelector('text=Line Support desk added.');
    expect(await page.textContent('#sms-lines')).toContain('Support desk +13035550177 · support');

    // Team chat: the wired space gets the test; then another space, with other flags.
    await page.click('button[data-chat-test]');
    await page.waitForSelector('#chat-test-out.ok:has-text("Posted to the chat space")');
    const chatTexts = async () => [...(await received()).chat, ...s.p.chat.messages].map((m) => m.text);
    expect((await chatTexts()).filter((t) => t?.includes('team chat is working'))).toHaveLength(1);
    await page.fill('#chat-url', 'https://chat.example.org/v1/spaces/X/messages?key=k&token=t');
    await page.click('#chat-form button[type=submit]');
    await page.waitForSelector('#chat-url[aria-invalid="true"]');
    await page.fill('#chat-url', s.p.chat.webhookUrl('AcmeOffice'));
    await page.uncheck('#chat-enable_fsm');
    await page.check('#chat-enable_po');
    await page.click('#chat-form button[type=submit]');
    await page.waitForSelector('text=Team chat saved.');
    expect(await page.isChecked('#chat-enable_fsm')).toBe(false);
    expect(await page.isChecked('#chat-enable_po')).toBe(true);
    expect(await page.content()).not.toContain('token=');
    await page.click('button[data-chat-test]');
    await page.waitForSelector('#chat-test-out.ok:has-text("AcmeOffice")');
    expect(s.p.chat.messages.at(-1)).toMatchObject({ space: 'AcmeOffice' });
    await checkBothWidths(page, 'integrations-tested');

    // Disconnect asks for a second press.
    await page.click('button[data-acct-disconnect]');
    await page.waitForSelector('button[data-acct-disconnect]:has-text("Confirm: disconnect")');
    await page.click('button[data-acct-disconnect]');
    await page.waitForSelector('text=Accounting disconnected');
    expect(await page.textContent('#acct-state')).toContain('is not connected.');
    await ctx.close();
  });
});
