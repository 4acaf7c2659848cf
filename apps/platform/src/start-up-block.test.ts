/** The start-up block: every URL a newcomer needs, where the passwords are (their value only on the start that made them), the stand-ins and the local bot check. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { DOCS_PASSWORD_FILE, ERP_ADMIN_PASSWORD_FILE, startUpBlock, type StartUpFacts } from './start-up-block.js';

const dataDir = mkdtempSync(join(tmpdir(), 'start-up-block-'));
writeFileSync(join(dataDir, ERP_ADMIN_PASSWORD_FILE), 'erp-secret-123\n');
writeFileSync(join(dataDir, DOCS_PASSWORD_FILE), 'docs-secret-456\n');
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const facts = (over: Partial<StartUpFacts> = {}): StartUpFacts => ({
  landingUrl: 'http://127.0.0.1:8001',
  frontendUrl: 'http://127.0.0.1:8000',
  controlUrl: 'http://127.0.0.1:8003',
  erpUrl: 'http://127.0.0.1:8069',
  embeddedErp: true,
  docsUrl: 'http://127.0.0.1:8002',
  workerMetricsUrl: 'http://127.0.0.1:9464/metrics',
  localConsole: { url: 'http://127.0.0.1:41234', mail: true },
  dataDir,
  tenantsHost: 'tenants.localhost',
  localCaptcha: true,
  erpAdminPasswordFromEnv: false,
  docsPasswordFromEnv: false,
  createdThisStart: new Set(),
  requestsAtDebug: true,
  ...over,
});

describe('the start-up block', () => {
  it('names every service, the tenant URLs, the stand-ins, the mailbox and the local bot check', () => {
    const b = startUpBlock(facts());
    for (const s of [
      'http://127.0.0.1:8001/',
      'http://<slug>.tenants.localhost:8000/office/leads',
      'http://<slug>.tenants.localhost:8001/',
      'http://127.0.0.1:8003/',
      'http://127.0.0.1:8069/',
      'http://127.0.0.1:8002/',
      'http://127.0.0.1:9464/metrics',
      'http://127.0.0.1:41234/',
      'http://127.0.0.1:41234/mail',
      'LOCAL stand-ins for SMS, accounting, team chat and email',
      'forms on localhost and *.tenants.localhost pass',
      'Requests are logged at debug',
    ])
      expect(b).toContain(s);
  });

  it('shows where the passwords are, never their value on a later start', () => {
    const b = startUpBlock(facts());
    expect(b).toContain(`password in ${join(dataDir, ERP_ADMIN_PASSWORD_FILE)}`);
    expect(b).toContain(`password in ${join(dataDir, DOCS_PASSWORD_FILE)}`);
    expect(b).not.toMatch(/erp-secret-123|docs-secret-456/);
  });

  it('shows a password made by this start once, and never one set in the environment', () => {
    const first = startUpBlock(facts({ createdThisStart: new Set([ERP_ADMIN_PASSWORD_FILE]) }));
    expect(first).toContain('erp-secret-123 (first start: shown once');
    const fromEnv = startUpBlock(
      facts({
        erpAdminPasswordFromEnv: true,
        docsPasswordFromEnv: true,
        createdThisStart: new Set([DOCS_PASSWORD_FILE]),
      }),
    );
    expect(fromEnv).toContain('as set in ERP_ADMIN_PASSWORD');
    expect(fromEnv).toContain('as set in DOCS_PASSWORD');
    expect(fromEnv).not.toMatch(/secret-/);
  });

  it('leaves out what is not running', () => {
    const b = startUpBlock(
      facts({ docsUrl: undefined, workerMetricsUrl: undefined, localConsole: undefined, localCaptcha: false }),
    );
    expect(b).not.toMatch(/Docs|Worker metrics|stand-ins|Bot check/);
  });
});
