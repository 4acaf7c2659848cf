/**
 * Chromium with a profile on disk, and Chromium's own verdict on whether a page can be installed.
 * A playwright `browser.newContext()` is off the record, and Chromium never offers to install from
 * an incognito profile (`in-incognito`), so installability is only checked in a persistent context.
 * Lighthouse (bench:frontend) also uses it: the tab Lighthouse opens over the debugging port lands in
 * this profile, so it sees the session and service worker a sign-in left there.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { type BrowserContext, type BrowserContextOptions, chromium, type Page } from 'playwright-core';

import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.js';

export interface ProfileChromium {
  context: BrowserContext;
  close(): Promise<void>;
}

export async function launchProfileChromium(
  options: BrowserContextOptions = {},
  extraArgs: string[] = [],
): Promise<ProfileChromium> {
  const dir = mkdtempSync(join(tmpdir(), 'frontend-chromium-'));
  const context = await chromium.launchPersistentContext(dir, {
    ...options,
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_ARGS, ...extraArgs],
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** What stops Chromium offering "Install app" on this page (CDP Page.getInstallabilityErrors): none = installable. */
export async function installabilityErrors(context: BrowserContext, page: Page): Promise<string[]> {
  const cdp = await context.newCDPSession(page);
  try {
    const { installabilityErrors: errors } = await cdp.send('Page.getInstallabilityErrors');
    return errors.map((e) => [e.errorId, ...e.errorArguments.map((a) => `${a.name}=${a.value}`)].join(' '));
  } finally {
    await cdp.detach();
  }
}
