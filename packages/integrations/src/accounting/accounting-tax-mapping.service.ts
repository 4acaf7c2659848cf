/**
 * The tax mapping of an accounting connection (docs/integrations.md, "Tax mapping"): each ERP sale
 * tax beside the provider's tax rates, the automatic choice by rate (accounting-tax-automap.ts), the
 * owner's choices saved into the connection's `tax_types`. Only ACTIVE revenue rates can be chosen:
 * the provider refuses an invoice line of any other. Rates are read from the provider each time
 * (an organisation archives and adds rates in its own screens).
 */
import type { TaxMappingRow, TaxMappingView } from '@platform/contracts';
import type { Db } from '@platform/db';
import type { Erp } from '@platform/erp';
import { AppError } from '@platform/kernel';
import { type AccountingApi, type AccountingTaxRate, isAccountingError } from '@platform/providers';

import { type AccountingRow, findAccounting, mergeTaxTypes } from '../settings/settings.repo.js';
import type { AccountingCalls } from './accounting-calls.js';
import { autoMapTax, autoMapTaxes, type ErpSaleTax, usableRates } from './accounting-tax-automap.js';

const notConnected = () =>
  new AppError('INTEGRATION_NOT_CONFIGURED', 'Connect the accounting first: its tax rates come from the provider.', {
    details: { integration: 'accounting' },
  });

/**
 * False for a grant made before the tax rates were asked for (no `accounting.settings[.read]`): the
 * provider would answer 403, and a 403 marks the whole connection for a reconnect, stopping its sync.
 * Unknown scopes (a provider that does not echo them) are taken as granted.
 */
export const canReadTaxRates = (row: Pick<AccountingRow, 'granted_scopes'>): boolean =>
  !row.granted_scopes || /(^|\s)accounting\.settings(\.read)?(\s|$)/.test(row.granted_scopes);

/** The ERP's percent sale taxes, archived ones left out (they are on no new invoice). */
export async function erpSaleTaxes(erp: Erp): Promise<ErpSaleTax[]> {
  const rows = await erp.searchRead('account.tax', [['type_tax_use', '=', 'sale']], {
    fields: ['name', 'amount', 'amount_type'],
    order: 'id',
  });
  return rows
    .filter((r) => (r['amount_type'] ?? 'percent') === 'percent')
    .map((r) => ({ id: r.id, name: String(r['name'] ?? `Tax ${r.id}`), amount: Number(r['amount'] ?? 0) }));
}

export class AccountingTaxMapping {
  constructor(
    private readonly db: Db,
    private readonly api: AccountingApi,
    private readonly calls: AccountingCalls,
  ) {}

  async view(tenantId: string, erp: Erp, companyId = 1): Promise<TaxMappingView> {
    const row = await this.connected(tenantId, companyId);
    return this.build(row, await erpSaleTaxes(erp), await this.rates(row));
  }

  /** Maps every unmapped tax that matches exactly one rate (on connect, and on demand). */
  async autoMap(tenantId: string, erp: Erp, companyId = 1): Promise<TaxMappingView> {
    const row = await this.connected(tenantId, companyId);
    const [taxes, rates] = [await erpSaleTaxes(erp), await this.rates(row)];
    const added = autoMapTaxes(taxes, rates, row.tax_types);
    if (Object.keys(added).length) await mergeTaxTypes(this.db, row.id, added);
    return this.build({ ...row, tax_types: { ...row.tax_types, ...added } }, taxes, rates);
  }

  /**
   * The sync's form of autoMap (a connection's first invoice with an unmapped tax): adds and returns
   * the mappings found; the provider's errors are the job's (retried, or waiting for a reconnect).
   */
  async autoMapRow(row: AccountingRow, erp: Erp): Promise<Record<string, string>> {
    if (!canReadTaxRates(row)) return {};
    const rates = await this.calls.call(row, 'the tax rates', (auth) => this.api.listTaxRates(auth));
    const added = autoMapTaxes(await erpSaleTaxes(erp), rates, row.tax_types);
    if (Object.keys(added).length) await mergeTaxTypes(this.db, row.id, added);
    return added;
  }

  /** Saves the owner's choices; every one must be an ACTIVE revenue rate, every key an ERP sale tax. */
  async save(tenantId: string, erp: Erp, taxTypes: Record<string, string>, companyId = 1): Promise<TaxMappingView> {
    const row = await this.connected(tenantId, companyId);
    const [taxes, rates] = [await erpSaleTaxes(erp), await this.rates(row)];
    const known = new Set(taxes.map((t) => String(t.id)));
    const usable = new Set(usableRates(rates).map((r) => r.taxType));
    const fieldIssues = Object.entries(taxTypes).flatMap(([id, type]) =>
      !known.has(id)
        ? [{ field: `tax_types.${id}`, rule: 'erp_tax', message: 'is not a sale tax of the ERP' }]
        : !usable.has(type)
          ? [
              {
                field: `tax_types.${id}`,
                rule: 'tax_type',
                message: `${type} is not an active tax rate of the provider`,
              },
            ]
          : [],
    );
    if (fieldIssues.length) throw new AppError('VALIDATION_FAILED', 'Some tax types cannot be used.', { fieldIssues });
    await mergeTaxTypes(this.db, row.id, taxTypes);
    return this.build({ ...row, tax_types: { ...row.tax_types, ...taxTypes } }, taxes, rates);
  }

  private async connected(tenantId: string, companyId: number): Promise<AccountingRow> {
    const row = await findAccounting(this.db, tenantId, companyId);
    if (!row || row.status !== 'connected') throw notConnected();
    return row;
  }

  private async rates(row: AccountingRow): Promise<AccountingTaxRate[]> {
    if (!canReadTaxRates(row))
      throw new AppError(
        'ACCOUNTING_PROVIDER_FAILED',
        'The accounting connection was made without permission to read tax rates: disconnect, then connect again.',
        { details: { provider_error: 'missing_scope' } },
      );
    try {
      return await this.calls.call(row, 'the tax rates', (auth) => this.api.listTaxRates(auth));
    } catch (e) {
      // AccountingCalls turns the provider's errors into the outbox's; a refused grant is on the row.
      const now = await findAccounting(this.db, row.tenant_id, row.company_id);
      const cause = (e as { cause?: unknown }).cause ?? e;
      const kind =
        now?.status === 'needs_reconnect' ? 'needs_reconnect' : isAccountingError(cause) ? cause.kind : 'unavailable';
      throw new AppError(
        'ACCOUNTING_PROVIDER_FAILED',
        'The accounting provider did not list its tax rates; try again.',
        {
          details: { provider_error: kind },
        },
      );
    }
  }

  private build(row: AccountingRow, taxes: ErpSaleTax[], rates: AccountingTaxRate[]): TaxMappingView {
    const usable = usableRates(rates);
    const active = new Set(usable.map((r) => r.taxType));
    const rows = taxes.map((t): TaxMappingRow => {
      const stored = row.tax_types[String(t.id)] ?? null;
      const auto = autoMapTax(t, rates);
      const suggested = auto.kind === 'matched' ? auto.taxType : null;
      const needs = stored ? (active.has(stored) ? null : 'inactive') : auto.kind === 'matched' ? null : auto.kind;
      return { erp_tax_id: t.id, name: t.name, amount: t.amount, tax_type: stored, suggested, needs_choice: needs };
    });
    return {
      taxes: rows,
      rates: usable.map((r) => ({ tax_type: r.taxType, name: r.name, rate: r.effectiveRate })),
      no_tax_type: row.no_tax_type,
    };
  }
}
