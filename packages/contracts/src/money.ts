/**
 * Money as the tenant's people read it, in the tenant's currency (Settings → Company). Intl knows each
 * currency's symbol and minor digits (two for USD and EUR, none for JPY), so nothing here is per
 * currency. Shared by the browser (office, portal) and the control plane's PDF documents; browser-safe.
 */
const formats = new Map<string, Intl.NumberFormat>();

function formatOf(currency: string): Intl.NumberFormat {
  let f = formats.get(currency);
  if (!f) formats.set(currency, (f = new Intl.NumberFormat('en-US', { style: 'currency', currency })));
  return f;
}

const digits = (currency: string) => formatOf(currency).resolvedOptions().maximumFractionDigits ?? 2;

/** An amount in integer minor units (cents) of `currency`: formatMoney(123456, 'EUR') is €1,234.56. */
export const formatMoney = (minor: number, currency: string): string =>
  formatOf(currency).format(minor / 10 ** digits(currency));

/** An amount in major units (the ERP's decimals) to minor units of `currency`, rounded half away from zero. */
export const toMinor = (amount: number, currency: string): number =>
  Math.sign(amount) * Math.round(Math.abs(amount) * 10 ** digits(currency));

/** Integer minor units of `currency` back to major units: fromMinor(1050, 'USD') is 10.5, fromMinor(1050, 'JPY') 1050. */
export const fromMinor = (minor: number, currency: string): number => minor / 10 ** digits(currency);
