import { loadErpConfig } from '@platform/app-erp/erp.config.js';
import { loadLandingConfig } from '@platform/app-landing/config.js';
import { loadWorkerConfig } from '@platform/app-worker/config.js';
import { ConfigError } from '@platform/kernel';
import { describe, expect, it } from 'vitest';

import { spawnPlatform } from '../test/support/platform-harness.js';

describe('start-up configuration', () => {
  it.each([
    ['LANDING_PORT', '99999', 'must be a TCP port', loadLandingConfig],
    ['CAPTCHA_MIN_SCORE', '2', 'between 0 and 1', loadLandingConfig],
    ['MAGNET_SIGNUP', 'yes', 'LANDING', loadLandingConfig],
    ['DATABASE_URL', 'mysql://x', 'postgres:// or postgresql://', loadLandingConfig],
    ['ERP_DB', 'Bad Name!', 'lowercase letters, digits and _', loadErpConfig],
    ['ERP_URL', 'not a url', 'http(s) URL', loadWorkerConfig],
    ['ERP_STRUCTURED_ATTRIBUTION', 'maybe', 'on or off', loadWorkerConfig],
    ['OUTBOX_MAX_ATTEMPTS', '0', 'at least 1', loadWorkerConfig],
    ['OUTBOX_CLAIM_TIMEOUT_MS', '10', 'at least 1000', loadWorkerConfig],
    ['SHUTDOWN_TIMEOUT_MS', 'soon', 'number', loadWorkerConfig],
    ['WEBHOOK_RECEIPT_RETENTION_DAYS', '0', 'at least 1', loadWorkerConfig],
  ] as const)('%s=%s is refused with a message naming the variable', (name, value, rule, load) => {
    let err: unknown;
    try {
      load({ [name]: value });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toContain(name);
    if (rule !== 'LANDING') expect((err as Error).message).toContain(rule);
  });

  it('a bot-check secret without its allow-list and site key is refused', () => {
    expect(() => loadLandingConfig({ CAPTCHA_SECRET_KEY: 'a-long-secret' })).toThrow(
      /CAPTCHA_ALLOWED_HOSTNAMES[\s\S]*CAPTCHA_SITE_KEY|CAPTCHA_SITE_KEY[\s\S]*CAPTCHA_ALLOWED_HOSTNAMES/,
    );
  });

  it('npm start with a bad value exits 1 before starting anything, naming the variable and the rule', async () => {
    const p = spawnPlatform({ LANDING_PORT: 'eighty', DATA_DIR: '/nonexistent/never-created' });
    expect(await p.exited).toBe(1);
    expect(p.output()).toMatch(/LANDING_PORT: .*(number|integer)/);
    expect(p.output()).not.toMatch(/at .*\.ts:\d+/); // a message, not a stack trace
  }, 60_000);
});
