/**
 * Test helper: a tenant's accounting connection configured (as the operator does) and connected
 * through the local stand-in's authorize page and the ERP host's callback, as the owner does.
 */
import type { Db } from '@platform/db';
import {
  accountingConnectionSchema,
  createAccountingServices,
  IntegrationSettingsService,
} from '@platform/integrations';
import { normalizeSmsPhone, xeroAccountingAdapters } from '@platform/providers';
import { type RunningLocalAccounting, startLocalAccounting } from '@platform/providers/local';
import type { SecretBox } from '@platform/secrets';

export const ACCT_APP = {
  clientId: 'tax-client',
  clientSecret: 'tax-client-secret-0123',
  webhookKey: 'tax-webhook-key-'.repeat(2),
  redirectUri: 'http://localhost:8069/acct/callback',
};

/** The stand-in, with sale rates of 0, 8.25 (one) and 10 % (two), an archived 7 % and a purchase-only 8.25 %. */
export function startTaxStandIn(): Promise<RunningLocalAccounting> {
  return startLocalAccounting({
    ...ACCT_APP,
    redirectUris: [ACCT_APP.redirectUri],
    tenants: [{ tenantName: 'Acme Blinds Ltd' }],
    taxRates: { NONE: 0, TAX825: 0.0825, OUTPUT: 0.1, GSTIMPORT: 0.1, INPUT825: 0.0825 },
    taxRateDetails: {
      NONE: { name: 'Tax Exempt' },
      TAX825: { name: 'Sales Tax 8.25%' },
      OUTPUT: { name: 'GST on Income' },
      GSTIMPORT: { name: 'GST on Imports' },
      INPUT825: { name: 'Purchases 8.25%', canApplyToRevenue: false },
      OLD7: { name: 'Retired 7%', rate: 0.07, status: 'ARCHIVED' },
    },
  });
}

/** The env that points the control plane at the stand-in. */
export const accountingEnv = (acct: RunningLocalAccounting) => ({
  ACCT_LOGIN_URL: acct.url,
  ACCT_IDENTITY_URL: acct.url,
  ACCT_API_URL: acct.url,
});

export async function connectAccounting(db: Db, box: SecretBox, tenantId: string, acct: RunningLocalAccounting) {
  const settings = new IntegrationSettingsService(db, box, (raw) => normalizeSmsPhone(raw, 'US'), []);
  await settings.setAccountingConnection(
    tenantId,
    accountingConnectionSchema.parse({
      name: 'Acme books',
      client_id: ACCT_APP.clientId,
      client_secret: ACCT_APP.clientSecret,
      redirect_uri: ACCT_APP.redirectUri,
      webhook_key: ACCT_APP.webhookKey,
    }),
  );
  const services = createAccountingServices(
    db,
    settings,
    xeroAccountingAdapters({ loginUrl: acct.url, identityUrl: acct.url, apiUrl: acct.url }),
  );
  const approved = await fetch(await services.connect.start(tenantId), { redirect: 'manual' });
  const back = new URL(approved.headers.get('location')!);
  const done = await services.connect.callback({
    state: back.searchParams.get('state')!,
    code: back.searchParams.get('code')!,
    receivedUrl: ACCT_APP.redirectUri,
  });
  if (!done.ok) throw new Error(`accounting not connected: ${JSON.stringify(done)}`);
}
