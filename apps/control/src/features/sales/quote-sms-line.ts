/** The tenant's default SMS line for texting a quote's link; none (the quote is emailed only) is not an error. */
import type { IntegrationSettingsService } from '@platform/integrations';
import { isAppError } from '@platform/kernel';

export const defaultSmsLineOf =
  (integrations: IntegrationSettingsService) =>
  (tenantId: string): Promise<string | undefined> =>
    integrations.lineFor(tenantId).then(
      (l) => l.phone_number,
      (e: unknown) => {
        if (isAppError(e) && e.code === 'NOT_FOUND') return undefined;
        throw e;
      },
    );
