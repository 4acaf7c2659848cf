/** The ERP host's integration services (settings, SMS), over the platform database. */
import type { Db } from '@platform/db';
import { IntegrationSettingsService, SmsService } from '@platform/integrations';
import { normalizeSmsPhone } from '@platform/providers';
import { secretBoxFromConfig } from '@platform/secrets';
import { ConfigError } from '@platform/kernel';
import type { ErpConfig } from '../../erp.config.js';

export interface IntegrationsDeps {
  tenantId: string;
  settings: IntegrationSettingsService;
  sms: SmsService;
}

export function composeIntegrations(config: ErpConfig, db: Db, tenantId: string): IntegrationsDeps {
  let box;
  try {
    box = secretBoxFromConfig(config);
  } catch (e) {
    throw new ConfigError(`Invalid configuration:\n  ${(e as Error).message}`);
  }
  const settings = new IntegrationSettingsService(db, box, (raw) => normalizeSmsPhone(raw, config.SMS_DEFAULT_REGION));
  return { tenantId, settings, sms: new SmsService(db, settings) };
}
