import { describe, expect, it } from 'vitest';

import { createEmbeddedBotCheck } from './embedded-bot-check.js';

const check = () =>
  createEmbeddedBotCheck({
    secret: 's3cret-embedded',
    minScore: 0.5,
    allowedHostnames: ['localhost', '*.tenants.localhost'],
  });

describe('the embedded bot check (siteverify adapter answered in process)', () => {
  it('verifies a token its store minted, with no server listening anywhere', async () => {
    const c = check();
    const token = c.store.mint({ action: 'estimate', hostname: 'acme.tenants.localhost' });
    const verdict = await c.verifier.verify({ token, expectedAction: 'estimate', remoteIp: '203.0.113.9' });
    expect(verdict.ok).toBe(true);
  });

  it('refuses the same token twice, a wrong action, a foreign host and a low score, as siteverify does', async () => {
    const c = check();
    const token = c.store.mint({ action: 'estimate', hostname: 'localhost' });
    expect((await c.verifier.verify({ token, expectedAction: 'estimate' })).ok).toBe(true);
    expect(await c.verifier.verify({ token, expectedAction: 'estimate' })).toMatchObject({
      ok: false,
      reason: 'duplicate_or_expired',
    });
    const other = c.store.mint({ action: 'callback', hostname: 'localhost' });
    expect(await c.verifier.verify({ token: other, expectedAction: 'estimate' })).toMatchObject({ ok: false });
    const foreign = c.store.mint({ action: 'estimate', hostname: 'evil.example.com' });
    expect(await c.verifier.verify({ token: foreign, expectedAction: 'estimate' })).toMatchObject({ ok: false });
    const bot = c.store.mint({ action: 'estimate', hostname: 'localhost', score: 0.1 });
    expect(await c.verifier.verify({ token: bot, expectedAction: 'estimate' })).toMatchObject({ ok: false });
  });

  it('does not verify tokens minted by another store (another process)', async () => {
    const token = check().store.mint({ action: 'estimate', hostname: 'localhost' });
    expect(await check().verifier.verify({ token, expectedAction: 'estimate' })).toMatchObject({ ok: false });
  });
});
