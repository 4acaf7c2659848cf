/**
 * Two companies' apps at one accounting stand-in, as at Xero: each app's grant reaches only the
 * organisations connected to that app, and another app's organisation is refused (403).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { adapters, connect, REDIRECT_URI, startStandIn } from '../accounting.test-helpers.js';
import type { RunningLocalAccounting } from './local-accounting.server.js';

const B = { clientId: 'client-b', clientSecret: 'client-b-secret-0123456789' };
let local: RunningLocalAccounting;
beforeAll(async () => {
  local = await startStandIn({
    tenants: [{ tenantId: 'org-a', tenantName: 'A Blinds' }],
    apps: [
      {
        ...B,
        redirectUris: [REDIRECT_URI],
        webhookKey: 'client-b-webhook-key-0123456789abcdef',
        tenants: [{ tenantId: 'org-b', tenantName: 'B Shutters' }],
      },
    ],
  });
});
afterAll(() => local?.close());

describe('the local accounting stand-in with two apps', () => {
  it("connects each app to its own organisation only; one app's token is refused on the other's", async () => {
    const { oauth } = adapters(local);
    const a = await connect(oauth);
    const b = await connect(oauth, REDIRECT_URI, B);
    expect((await oauth.connections(a.accessToken)).map((o) => o.tenantId)).toEqual(['org-a']);
    expect((await oauth.connections(b.accessToken)).map((o) => o.tenantId)).toEqual(['org-b']);
    const read = (token: string, org: string) =>
      fetch(`${local.url}/api.xro/2.0/Invoices`, {
        headers: { authorization: `Bearer ${token}`, 'xero-tenant-id': org, accept: 'application/json' },
      });
    expect((await read(b.accessToken, 'org-b')).status).toBe(200);
    expect((await read(a.accessToken, 'org-b')).status).toBe(403);
  });

  it("refuses one app's client id with another app's secret", async () => {
    const { oauth } = adapters(local);
    await expect(
      connect(oauth, REDIRECT_URI, { clientId: B.clientId, clientSecret: 'local-client-secret-0123456789' }),
    ).rejects.toThrow();
  });
});
