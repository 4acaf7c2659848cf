/**
 * The pages the invitation and password-reset emails link to: the token is read from the URL
 * fragment and dropped from the address bar; an accepted invitation signs the technician in and
 * opens their jobs; a used or expired link says so and what to do; a field the control plane refuses
 * is named next to the field. The control plane is the contract stand-in with the two /auth routes.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { axe, PHONE_375 } from './chromium.js';
import { useStandinSession } from './standin-session.js';

const posted: { path: string; body: Record<string, unknown> }[] = [];

const session = useStandinSession(undefined, (control) => {
  control.routes.push((req, path, body, res) => {
    if (req.method !== 'POST' || !['/auth/invitations/accept', '/auth/password-reset/confirm'].includes(path))
      return false;
    posted.push({ path, body });
    if (body.token === 'invite-needs-name-0123456789')
      control.problem(res, 422, 'VALIDATION_FAILED', {
        errors: [{ field: 'name', rule: 'required', message: 'A new account needs your name.' }],
      });
    else if (path.endsWith('/accept') && body.token === 'invite-good-0123456789')
      control.send(res, 200, control.session());
    else if (path.endsWith('/confirm') && body.token === 'reset-good-0123456789') control.send(res, 204);
    else control.problem(res, 404, path.endsWith('/accept') ? 'INVITATION_INVALID' : 'RESET_TOKEN_INVALID');
    return true;
  });
  control.addJob({ id: 'j1' });
});

async function open(path: string, token: string): Promise<Page> {
  const page = await (await session.browser.newContext(PHONE_375)).newPage();
  await page.goto(`${session.fe.url}${path}#token=${token}`);
  await page.waitForFunction(() => !location.hash);
  expect(page.url()).not.toContain(token);
  // Fits a 375 px phone: nothing scrolls sideways.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  return page;
}

describe('the account pages', () => {
  it('accepts an invitation, signs the technician in and opens their jobs; a dead link says to ask again', async () => {
    const page = await open('/account/accept-invitation', 'invite-good-0123456789');
    expect(await page.textContent('main')).toContain('Leave empty if you already have an account');
    expect(await axe(page)).toEqual([]);
    await page.fill('#a-password', 'short');
    await page.fill('#a-confirm', 'other');
    await page.click('#account-form button[type=submit]');
    await page.waitForSelector('#a-password-err:has-text("at least 10 characters")');
    expect(await page.getAttribute('#a-password', 'aria-invalid')).toBe('true');
    expect(await page.textContent('#a-confirm-err')).toContain('differ');
    expect(posted).toHaveLength(0);
    expect(await axe(page)).toEqual([]);
    await page.fill('#a-name', 'Tess Tech');
    await page.fill('#a-password', 'blinds and shades');
    await page.fill('#a-confirm', 'blinds and shades');
    await page.click('#account-form button[type=submit]');
    await page.waitForURL('**/field/jobs');
    await page.waitForSelector('text=Carla Customer');
    expect(posted.at(-1)).toEqual({
      path: '/auth/invitations/accept',
      body: { token: 'invite-good-0123456789', name: 'Tess Tech', password: 'blinds and shades' },
    });
    const acme = (await session.fe.db.db.query<{ id: string }>(`SELECT id FROM tenants WHERE slug = 'acme'`)).rows[0]!
      .id;
    expect(session.control.log.find((l) => l.path === '/auth/invitations/accept')?.tenant).toBe(acme);

    const needsName = await open('/account/accept-invitation', 'invite-needs-name-0123456789');
    await needsName.fill('#a-password', 'blinds and shades');
    await needsName.fill('#a-confirm', 'blinds and shades');
    await needsName.click('#account-form button[type=submit]');
    await needsName.waitForSelector('#a-name-err:has-text("A new account needs your name.")');
    expect(posted.at(-1)!.body).not.toHaveProperty('name');
    expect(await axe(needsName)).toEqual([]);

    const dead = await open('/account/accept-invitation', 'invite-used-0123456789');
    await dead.fill('#a-password', 'blinds and shades');
    await dead.fill('#a-confirm', 'blinds and shades');
    await dead.click('#account-form button[type=submit]');
    await dead.waitForSelector('#account-msg:has-text("This invitation is no longer valid; ask for a new one")');
    expect(await dead.isHidden('#account-form')).toBe(true);
    expect(await axe(dead)).toEqual([]);
  });

  it('changes the password and links to sign in; an expired link says how to get a new one', async () => {
    const page = await open('/account/reset-password', 'reset-good-0123456789');
    expect(await axe(page)).toEqual([]);
    await page.fill('#r-password', 'new shutters 2026');
    await page.fill('#r-confirm', 'new shutters 2026');
    await page.click('#account-form button[type=submit]');
    await page.waitForSelector('#account-msg:has-text("Password changed")');
    expect(await page.getAttribute('#account-msg a', 'href')).toBe('/field/login');
    expect(posted.at(-1)).toEqual({
      path: '/auth/password-reset/confirm',
      body: { token: 'reset-good-0123456789', password: 'new shutters 2026' },
    });
    expect(await axe(page)).toEqual([]);

    const dead = await open('/account/reset-password', 'reset-expired-0123456789');
    await dead.fill('#r-password', 'new shutters 2026');
    await dead.fill('#r-confirm', 'new shutters 2026');
    await dead.click('#account-form button[type=submit]');
    await dead.waitForSelector('#account-msg:has-text("no longer valid")');
    expect(await dead.textContent('#account-msg')).toContain('Ask for a new reset link');
    expect(await axe(dead)).toEqual([]);
  });
});
