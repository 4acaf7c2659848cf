/**
 * Whose Conversions API credentials a queued Lead event goes with (docs/website.md): the tenant's own
 * pixel id and sealed token when it set both; else the platform's META_* sender, only for the default
 * tenant (the platform's own site); else none, and the event is not sent. Never another tenant's.
 */
import type { Db } from '@platform/db';
import { type ConversionsSender, createMetaCapiSender } from '@platform/providers';
import type { SecretBox } from '@platform/secrets';
import { findTenantById } from '@platform/tenancy';
import { readMetaCapiCredentials } from '@platform/website';

export interface MetaSenderSettings {
  META_GRAPH_URL: string;
  META_DEFAULT_COUNTRY_CODE: string;
  META_TEST_EVENT_CODE?: string | undefined;
}

export type ConversionsSenderOf = (tenantId: string) => Promise<ConversionsSender | null>;

export function conversionsSenderOf(
  db: Db,
  box: SecretBox,
  config: MetaSenderSettings,
  platform: ConversionsSender,
): ConversionsSenderOf {
  return async (tenantId) => {
    const own = await readMetaCapiCredentials(db, box, tenantId);
    if (own)
      // Built per event: the token is read (opened) when sent, so a changed token applies at once.
      return createMetaCapiSender({
        graphUrl: config.META_GRAPH_URL,
        pixelId: own.pixelId,
        accessToken: own.accessToken,
        defaultCountryCode: config.META_DEFAULT_COUNTRY_CODE,
        ...(config.META_TEST_EVENT_CODE ? { testEventCode: config.META_TEST_EVENT_CODE } : {}),
      });
    return (await findTenantById(db, tenantId))?.is_default ? platform : null;
  };
}
