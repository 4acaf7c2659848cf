/** Launches Debian's Chromium through playwright-core, and axe-core for accessibility checks. */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

import { type Browser, type BrowserContextOptions, chromium, type Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-sync',
];

/** `extraArgs`: e.g. host-resolver rules for tenant hosts (test/support/real-platform.ts). */
export async function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH))
    throw new Error(`Chromium not found at ${CHROMIUM_PATH}: apt-get install -y chromium`);
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: [...CHROMIUM_ARGS, ...extraArgs] });
}

export const PHONE_375: BrowserContextOptions = {
  viewport: { width: 375, height: 740 },
  isMobile: true,
  hasTouch: true,
  deviceScaleFactor: 2,
};
export const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 800 } };

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export async function axe(page: Page): Promise<{ id: string; help: string; nodes: string[] }[]> {
  await page.addScriptTag({ content: AXE_SOURCE });
  return page.evaluate(async () => {
    const r = await (
      window as unknown as {
        axe: { run(): Promise<{ violations: { id: string; help: string; nodes: { target: string[] }[] }[] }> };
      }
    ).axe.run();
    return r.violations.map((v) => ({ id: v.id, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ')) }));
  });
}

/** A 12 MP JPEG (4000 × 3000) made in the page, handed to a file input as if the camera took it. */
export async function takePhoto(page: Page, selector: string, hue: number): Promise<void> {
  await page.evaluate(
    async ({ selector, hue }) => {
      const c = new OffscreenCanvas(4000, 3000);
      const g = c.getContext('2d')!;
      for (let i = 0; i < 60; i++) {
        g.fillStyle = `hsl(${(hue + i * 7) % 360} 70% ${30 + (i % 5) * 10}%)`;
        g.fillRect((i * 397) % 4000, (i * 211) % 3000, 900, 700);
      }
      const blob = await c.convertToBlob({ type: 'image/jpeg', quality: 0.92 });
      const file = new File([blob], `IMG_${hue}.jpg`, { type: 'image/jpeg' });
      const dt = new DataTransfer();
      dt.items.add(file);
      const input = document.querySelector<HTMLInputElement>(selector)!;
      input.files = dt.files;
      input.dispatchEvent(new Event('change', { bubbles: true }));
    },
    { selector, hue },
  );
}

/** Signs on a canvas with a few strokes of the mouse. */
export async function sign(page: Page, selector: string): Promise<void> {
  await page.locator(selector).scrollIntoViewIfNeeded();
  const box = (await page.locator(selector).boundingBox())!;
  await page.mouse.move(box.x + 20, box.y + box.height / 2);
  await page.mouse.down();
  for (let i = 1; i <= 12; i++) await page.mouse.move(box.x + 20 + i * 20, box.y + box.height / 2 + (i % 2 ? -25 : 25));
  await page.mouse.up();
}
