/**
 * Mail that arrives on embedded defaults: `npm start`'s local stand-ins include a real SMTP mailbox on
 * loopback; the platform's email sender (EMAIL_SMTP_URL pointed at it) delivers a rendered template to
 * it, and the stand-ins' console lists the message (to, subject, links clickable) and shows its HTML and
 * text. The mailbox survives a restart in a 0600 file; LOCAL_PROVIDERS=off or a real provider leaves it out.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createPrimarySender, emailConfigDefaults } from '@platform/email';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { quoteLinkEmail } from '../test/support/quote-email.js';
import { type LocalProviders, startLocalProviders } from './local-providers.js';
import { loadPlatformConfig } from './platform.config.js';

const portalUrl = 'http://acme.tenants.localhost:8000/portal/quote/abc123';
const silent = { info: () => {}, warn: () => {} };
let dataDir: string;
let local: LocalProviders;
let consoleUrl: string;

const quoteEmail = () => quoteLinkEmail(portalUrl);

const start = async () =>
  (await startLocalProviders(loadPlatformConfig({ DATA_DIR: dataDir, LOCAL_PROVIDERS_PORT: '0' })))!;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'local-mail-'));
  local = await start();
  consoleUrl = await local.bind('http://127.0.0.1:9');
});
afterAll(async () => {
  await local?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the local mail stand-in', () => {
  it("takes the platform's email over SMTP and lists it on the console with its link", async () => {
    expect(local.env.EMAIL_SMTP_URL).toMatch(/^smtp:\/\/127\.0\.0\.1:\d+$/);
    const sender = createPrimarySender(emailConfigDefaults({ EMAIL_SMTP_URL: local.env.EMAIL_SMTP_URL }), silent);
    const sent = quoteEmail();
    expect((await sender.send(sent)).provider).toBe('smtp');
    await sender.close?.();
    await local.mail!.waitFor(1);

    const list = await fetch(`${consoleUrl}/mail`);
    expect(list.headers.get('content-type')).toMatch(/^text\/html/);
    const page = await list.text();
    expect(page).toContain('jane@example.com');
    expect(page).toContain(sent.subject);
    expect(page).toContain(`<a href="${portalUrl}">`);

    const id = local.mail!.messages[0]!.id;
    const one = await (await fetch(`${consoleUrl}/mail/${id}`)).text();
    expect(one).toContain(`src="/mail/${id}/html"`);
    expect(one).toContain(`<a href="${portalUrl}">`);
    const html = await fetch(`${consoleUrl}/mail/${id}/html`);
    expect(html.headers.get('content-security-policy')).toMatch(/^sandbox/);
    expect(await html.text()).toContain(portalUrl);

    const json = (await (await fetch(consoleUrl)).json()) as { mail: { to: string; links: string[] }[] };
    expect(json.mail).toEqual([expect.objectContaining({ to: expect.stringContaining('jane@example.com') })]);
    expect(json.mail[0]!.links).toContain(portalUrl);
  });

  it('keeps the mail across a restart in a file only its owner can read', async () => {
    await local.close();
    const file = join(dataDir, 'local-mail.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    local = await start();
    consoleUrl = await local.bind('http://127.0.0.1:9');
    expect(local.mail!.messages.map((m) => m.to)).toEqual([expect.stringContaining('jane@example.com')]);
    expect(await (await fetch(`${consoleUrl}/mail`)).text()).toContain(portalUrl);
  });

  it('is not started with LOCAL_PROVIDERS=off or when a real mail provider is configured', async () => {
    const off = await startLocalProviders(loadPlatformConfig({ DATA_DIR: dataDir, LOCAL_PROVIDERS: 'off' }));
    expect(off).toBeUndefined();
    const relay = await startLocalProviders(
      loadPlatformConfig({ DATA_DIR: dataDir, EMAIL_SMTP_URL: 'smtp://mail.example.com:587' }),
    );
    try {
      expect(relay?.mail).toBeUndefined();
      expect(relay?.env.EMAIL_SMTP_URL).toBeUndefined();
    } finally {
      await relay?.close();
    }
  });
});
