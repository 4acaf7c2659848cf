/**
 * A measure job's windows (docs/control-plane.md "Measuring visits"): the measurer records each one
 * (the phone makes its id, so a resend is the same window), every window is priced from the
 * tenant's grids with the quote builder's rules (@platform/contracts: window-pricing, measurement),
 * a window over the product's limits is kept and flagged with them, and "Send to office" makes the
 * job's one draft quote, re-priced here: the phone's price is never taken.
 */
import type {
  Measurement,
  MeasurementInput,
  MeasurementsAnswer,
  MeasureQuoteAnswer,
} from '@platform/contracts/measurement.js';
import { priceMeasurement } from '@platform/contracts/measurement.js';
import type { PricedLine, PriceGrid } from '@platform/contracts/window-pricing.js';
import type { Db } from '@platform/db';
import { AppError } from '@platform/kernel';

import type { AuditLog } from '../audit/audit-log.js';
import type { Principal } from '../auth/principal.js';
import { setQuote } from './jobs.repo.js';
import type { JobsReader, LoadedJob } from './jobs.service.js';
import * as repo from './measurements.repo.js';

/** What measuring needs of sales: the grids, and the one draft quote (QuotesService.draftFromMeasurements). */
export interface MeasureSales {
  grids(tenantId: string): Promise<PriceGrid[]>;
  draftFromMeasurements(
    p: Principal,
    draft: {
      jobId: string;
      partnerId: number;
      lines: (PricedLine & { measurement_id: string })[];
      flagged: (MeasurementInput & { measurement_id: string; reasons: string[] })[];
    },
  ): Promise<{ quoteId: string; updated: boolean }>;
}

const refused = (field: string, rule: string, message: string) =>
  new AppError('VALIDATION_FAILED', message, { fieldIssues: [{ field, rule, message }] });

export class MeasurementsService {
  constructor(
    private readonly deps: { db: Db; audit: AuditLog },
    private readonly reader: JobsReader,
    private readonly sales: MeasureSales,
  ) {}

  /** The job, which must be a measure job (JOB_NOT_MEASURE names its kind). */
  private async measureJob(p: Principal, jobId: string): Promise<LoadedJob> {
    const j = await this.reader.load(p, jobId);
    if (j.row.kind !== 'measure')
      throw new AppError('JOB_NOT_MEASURE', `This is a${j.row.kind === 'install' ? 'n' : ''} ${j.row.kind} job.`, {
        details: { kind: j.row.kind },
      });
    return j;
  }

  private view(r: repo.MeasurementRow, grids: PriceGrid[]): Measurement {
    const { job_id: _j, removed: _r, updated_at, ...m } = r;
    const priced = priceMeasurement(
      grids.find((g) => g.product_code === m.product_code),
      m,
    );
    return {
      ...m,
      unit_price: priced.line?.unit_price ?? null,
      flags: priced.flags,
      updated_at: updated_at.toISOString(),
    };
  }

  async list(p: Principal, jobId: string): Promise<MeasurementsAnswer> {
    const j = await this.measureJob(p, jobId);
    const [rows, grids] = await Promise.all([
      this.reader.inTenant(p, (tx) => repo.measurementsOf(tx, jobId)),
      this.sales.grids(p.tenantId),
    ]);
    return { items: rows.map((r) => this.view(r, grids)), grids, quote_id: j.row.quote_id };
  }

  /** Records (or replaces) one window; a product or option the tenant does not sell is refused. */
  async put(p: Principal, jobId: string, id: string, m: MeasurementInput): Promise<Measurement> {
    await this.measureJob(p, jobId);
    const grids = await this.sales.grids(p.tenantId);
    const grid = grids.find((g) => g.product_code === m.product_code);
    if (!grid) throw refused('product_code', 'unknown_product', `no price grid for ${m.product_code}`);
    const i = m.options.findIndex((o) => !grid.options.some((x) => x.code === o));
    if (i >= 0) throw refused(`options.${i}`, 'unknown_option', `${grid.name} has no option ${m.options[i]}`);
    const row = await this.reader.inTenant(p, async (tx) => {
      const owner = await repo.measurementJob(tx, id);
      if (owner && owner !== jobId) throw refused('id', 'not_this_job', 'this window id belongs to another job');
      await repo.upsertMeasurement(tx, { ...m, id, tenantId: p.tenantId, jobId, by: p.userId });
      await this.deps.audit.record(tx, {
        tenantId: p.tenantId,
        actor: { kind: 'user', id: p.userId },
        action: 'job.measurement.put',
        target: { type: 'job', id: jobId },
        detail: { measurement_id: id, product_code: m.product_code, width_in: m.width_in, drop_in: m.drop_in },
      });
      return (await repo.measurementOf(tx, jobId, id))!;
    });
    return this.view(row, grids);
  }

  /** Removes one window; removing it again (a resend) changes nothing. */
  async remove(p: Principal, jobId: string, id: string): Promise<{ id: string; removed: true }> {
    await this.measureJob(p, jobId);
    await this.reader.inTenant(p, async (tx) => {
      const row = await repo.measurementOf(tx, jobId, id);
      if (!row || row.removed) return;
      await repo.removeMeasurement(tx, jobId, id, p.userId);
      await this.deps.audit.record(tx, {
        tenantId: p.tenantId,
        actor: { kind: 'user', id: p.userId },
        action: 'job.measurement.remove',
        target: { type: 'job', id: jobId },
        detail: { measurement_id: id },
      });
    });
    return { id, removed: true };
  }

  /** "Send to office": the job's one draft quote, priced here from the grids, linked both ways. */
  async sendToOffice(p: Principal, jobId: string): Promise<MeasureQuoteAnswer> {
    const j = await this.measureJob(p, jobId);
    const partnerId = j.order.customer?.id;
    if (!partnerId) throw refused('customer', 'required', 'the job has no customer to quote');
    const [rows, grids] = await Promise.all([
      this.reader.inTenant(p, (tx) => repo.measurementsOf(tx, jobId)),
      this.sales.grids(p.tenantId),
    ]);
    if (!rows.length) throw refused('measurements', 'min_items', 'measure at least one window first');
    const lines: Parameters<MeasureSales['draftFromMeasurements']>[1]['lines'] = [];
    const flagged: Parameters<MeasureSales['draftFromMeasurements']>[1]['flagged'] = [];
    for (const r of rows) {
      const { id, job_id: _j, removed: _r, updated_at: _u, position: _p, ...m } = r;
      const priced = priceMeasurement(
        grids.find((g) => g.product_code === m.product_code),
        m,
      );
      if (priced.line) lines.push({ ...priced.line, measurement_id: id });
      else flagged.push({ ...m, measurement_id: id, reasons: priced.flags.map((f) => f.message) });
    }
    const made = await this.sales.draftFromMeasurements(p, { jobId, partnerId, lines, flagged });
    await this.reader.inTenant(p, (tx) => setQuote(tx, jobId, made.quoteId));
    return { quote_id: made.quoteId, updated: made.updated, priced: lines.length, flagged: flagged.length };
  }
}
