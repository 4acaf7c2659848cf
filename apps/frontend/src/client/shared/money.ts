/**
 * Money as the tenant's people read it: in the tenant's currency (Settings → Company), which the
 * server puts on the page as `data-currency`. The formatting is shared with the control plane's PDF
 * documents (@platform/contracts/money.js).
 */
export { formatMoney, toMinor } from '@platform/contracts/money.js';

/** The tenant's currency from the page; USD on a page that does not say (the settings' default). */
export const tenantCurrency = (): string => globalThis.document?.body?.dataset.currency || 'USD';
