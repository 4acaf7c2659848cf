/**
 * `GET /api.xro/2.0/TaxRates` of the LOCAL stand-in, behind the same gate as the rest of the API
 * (scope `accounting.settings` or its `.read`). Every rate the ledger taxes invoices with is listed
 * (rate as a percent, 4 decimals), with a name and status; `taxRateDetails` renames rates, marks
 * them ARCHIVED/DELETED or adds rates only listed (as an organisation keeps retired ones). The wire
 * shape is xero-node's `TaxRate` model (docs/integrations.md "Tax mapping").
 */
import type { FastifyInstance } from 'fastify';

import { type ApiDeps, apiGate } from './local-accounting.gate.js';

export interface LocalTaxRateDetail {
  name: string;
  status?: 'ACTIVE' | 'ARCHIVED' | 'DELETED';
  /** Fraction (0.08); only for a rate missing from `taxRates` (listed, never usable on an invoice). */
  rate?: number;
  /** Default true. */
  canApplyToRevenue?: boolean;
}

/** Names of the stand-in's default rates, as a New Zealand organisation shows them. */
const DEFAULT_DETAILS: Record<string, LocalTaxRateDetail> = {
  NONE: { name: 'No GST' },
  EXEMPTOUTPUT: { name: 'Zero Rated' },
  OUTPUT: { name: 'GST on Income 10%' },
  OUTPUT2: { name: '15% GST on Income' },
  INPUT2: { name: '15% GST on Expenses', rate: 0.15, canApplyToRevenue: false },
  TAX001: { name: 'Old Sales Tax 12.5%', rate: 0.125, status: 'ARCHIVED' },
};

/** The organisation's TaxRates as Xero returns them. */
export function taxRatesJson(
  rates: Record<string, number>,
  details: Record<string, LocalTaxRateDetail> = DEFAULT_DETAILS,
): Record<string, unknown>[] {
  const codes = [...new Set([...Object.keys(rates), ...Object.keys(details)])];
  return codes.flatMap((code) => {
    const d = details[code];
    const fraction = rates[code] ?? d?.rate;
    if (fraction === undefined) return [];
    const percent = Math.round(fraction * 1_000_000) / 10_000;
    return [
      {
        Name: d?.name ?? code,
        TaxType: code,
        TaxComponents: [{ Name: 'Tax', Rate: percent, IsCompound: false, IsNonRecoverable: false }],
        Status: d?.status ?? 'ACTIVE',
        ReportTaxType: percent === 0 ? 'EXEMPTOUTPUT' : 'OUTPUT',
        CanApplyToRevenue: d?.canApplyToRevenue ?? true,
        DisplayTaxRate: percent,
        EffectiveRate: percent,
      },
    ];
  });
}

export function registerLocalTaxRateRoutes(app: FastifyInstance, d: ApiDeps, base: string): void {
  const { envelope, handle } = apiGate(d);
  app.get(
    `${base}/TaxRates`,
    handle(() => envelope('TaxRates', d.taxRates)),
  );
}
