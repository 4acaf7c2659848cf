/**
 * Changing jobs in the tenant's ERP: create, schedule, assign, stage moves, complete. Each runs
 * through runMutation (idempotent, If-Match, audited); each knows how to find its own effect again
 * after a lost reply, so a retried request never applies it twice.
 */
import { inches } from '@platform/contracts/window-pricing.js';
import type { Db, Queryable } from '@platform/db';
import type { Erp } from '@platform/erp';
import { AppError, type Clock } from '@platform/kernel';
import { escapeHtml } from '@platform/web/escape-html.js';
import { enqueueWebhookEvent } from '@platform/webhooks';

import type { AuditLog } from '../audit/audit-log.js';
import type { PlanLimits } from '../plans/plan-limits.service.js';
import {
  createOrder,
  ensurePerson,
  findOrderByMarker,
  type NewOrder,
  readOrders,
  toErpTime,
} from './erp/fsm-orders.js';
import { fsmStages } from './erp/fsm-stages.js';
import { jobCompleted, jobScheduled } from './job-events.js';
import { type Answer, type MutationContext, runMutation } from './job-mutation.js';
import { changeOrder, type JobCompletion, type JobMessages, type OrderChange } from './job-order-change.js';
import { assertMove, assertOpen, TECHNICIAN_STAGES } from './job-stages.js';
import {
  insertJob,
  insertTechnician,
  insertWindows,
  jobById,
  memberOf,
  setRouteOrder,
  technicianPerson,
} from './jobs.repo.js';
import type { JobsReader, LoadedJob } from './jobs.service.js';
import { JOB_KIND_NAMES, type JobKind, type JobWindow, type StageKey } from './jobs.types.js';

export interface CommandDeps {
  db: Db;
  audit: AuditLog;
  plans: PlanLimits;
  clock: Clock;
  /** Who hears of a completed job (the final invoice: invoicing.compose.ts); made after the jobs. */
  completion?: (() => JobCompletion) | undefined;
  /** Who tells the customer (messages.compose.ts); made after the jobs. */
  messages?: (() => JobMessages) | undefined;
}

export interface CreateJob {
  kind?: JobKind | undefined;
  customer?: { name: string; phone?: string | undefined; email?: string | undefined } | undefined;
  partner_id?: number | undefined;
  address: { street: string; city: string; zip: string; state?: string | undefined };
  scheduled_start?: string | undefined;
  scheduled_end?: string | undefined;
  technician_id?: string | undefined;
  windows?: JobWindow[] | undefined;
  sale_order_id?: number | undefined;
}

const refused = (field: string, rule: string, message: string) =>
  new AppError('VALIDATION_FAILED', message, { fieldIssues: [{ field, rule, message }] });

/**
 * The ERP order's Instructions: the visit's kind as their heading (fsm.order has no kind field in
 * the embedded ERP, and OCA's order types differ per database), then the windows.
 */
export const instructionsOf = (kind: JobKind, ws: JobWindow[]) =>
  `<p><strong>${JOB_KIND_NAMES[kind]} visit</strong></p>${windowsText(ws) ?? ''}`;

export const windowsText = (ws: JobWindow[]) =>
  ws.length
    ? `<ul>${ws.map((w) => `<li>${esc(w.room)}: ${esc(w.product)}, ${inches(w.width_in)}" × ${inches(w.drop_in)}", ${w.mount} mount, ${esc(w.colour)}</li>`).join('')}</ul>`
    : undefined;
const esc = escapeHtml;

export class JobCommands {
  constructor(
    private readonly deps: CommandDeps,
    private readonly reader: JobsReader,
  ) {}

  /** The member behind `technician_id`, who must be a technician of this tenant. */
  private async technician(tx: Queryable, userId: string) {
    const m = await memberOf(tx, userId);
    if (m?.role !== 'technician')
      throw refused('technician_id', 'not_a_technician', 'technician_id must be a technician of this company.');
    return { ...m, person: await technicianPerson(tx, userId) };
  }

  /** The ERP's person for a technician: the stored one, else found by email or made (stored on commit). */
  private async personFor(erp: Erp, t: { name: string; email: string; person: number | undefined }) {
    return t.person ?? ensurePerson(erp, t);
  }

  async create(ctx: MutationContext, b: CreateJob): Promise<Answer> {
    const p = ctx.principal;
    const erp = await this.reader.erpOf(p);
    if (b.partner_id && !(await erp.search('res.partner', [['id', '=', b.partner_id]])).length)
      throw refused('partner_id', 'not_found', 'partner_id is not a customer in the ERP.');
    if (b.sale_order_id && !(await erp.search('sale.order', [['id', '=', b.sale_order_id]])).length)
      throw refused('sale_order_id', 'not_found', 'sale_order_id is not a sales order in the ERP.');
    const tech = b.technician_id
      ? await this.reader.inTenant(p, (tx) => this.technician(tx, b.technician_id!))
      : undefined;
    return runMutation(this.deps, ctx, {
      action: 'job.create',
      request: ['POST', '/jobs', b],
      baseVersion: null,
      reserve: (tx) => this.deps.plans.reserveJob(tx, p.tenantId, this.deps.clock.now()),
      apply: async ({ marker, recovering }) => {
        const person = tech ? await this.personFor(erp, tech) : undefined;
        const found = recovering ? await findOrderByMarker(erp, marker) : null;
        const order: NewOrder = {
          customer: b.partner_id ? { partnerId: b.partner_id } : b.customer!,
          address: b.address,
          scheduledStart: b.scheduled_start,
          scheduledEnd: b.scheduled_end,
          personId: person,
          saleOrderId: b.sale_order_id,
          instructions: instructionsOf(b.kind ?? 'install', b.windows ?? []),
        };
        const erpId = found ?? (await createOrder(erp, order, marker));
        return { person, order: (await readOrders(erp, [erpId]))[0]! };
      },
      commit: async (tx, o) => {
        if (tech && o.person) await insertTechnician(tx, p.tenantId, b.technician_id!, o.person);
        const row = await insertJob(tx, {
          tenantId: p.tenantId,
          erpOrderId: o.order.erpId,
          addressState: b.address.state ?? null,
          routeOrder: 0,
          kind: b.kind ?? 'install',
        });
        if (row.created) await insertWindows(tx, p.tenantId, row.id, b.windows ?? []);
        // A job made with its time is scheduled by its creation.
        if (row.created && b.scheduled_start && b.scheduled_end)
          await enqueueWebhookEvent(
            tx,
            p.tenantId,
            jobScheduled(row.id, o.order.erpId, b.scheduled_start, b.scheduled_end, this.deps.clock.now()),
          );
        if (row.created && b.scheduled_start)
          await this.deps.messages?.().jobChanged(tx, p.tenantId, row.id, o.order, { what: 'scheduled' });
        const body = await this.reader.view(tx, { row: (await jobById(tx, row.id))!, order: o.order });
        return {
          outcome: 'created',
          body,
          target: { type: 'job', id: row.id },
          detail: { erp_order_id: o.order.erpId },
        };
      },
    });
  }

  async schedule(
    ctx: MutationContext,
    id: string,
    b: { scheduled_start: string; scheduled_end: string; route_order?: number | undefined },
  ) {
    const j = await this.reader.load(ctx.principal, id);
    assertOpen(j.order.stage.key, 'rescheduled');
    if (Date.parse(b.scheduled_end) <= Date.parse(b.scheduled_start))
      throw refused('scheduled_end', 'after_start', 'scheduled_end must be after scheduled_start.');
    const stages = await fsmStages(j.erp);
    return this.write(ctx, j, 'job.schedule', ['POST', `/jobs/${id}/schedule`, b], {
      applied: (o) => sameInstant(o.scheduledStart, b.scheduled_start) && sameInstant(o.scheduledEnd, b.scheduled_end),
      vals: {
        scheduled_date_start: toErpTime(b.scheduled_start),
        scheduled_date_end: toErpTime(b.scheduled_end),
        ...(j.order.stage.key === 'new' ? { stage_id: stages.idOf('scheduled') } : {}),
      },
      commit: async (tx) => {
        if (b.route_order !== undefined) await setRouteOrder(tx, id, b.route_order);
        return { ...j.row, route_order: b.route_order ?? j.row.route_order };
      },
      detail: { scheduled_start: b.scheduled_start, scheduled_end: b.scheduled_end },
      event: jobScheduled(id, j.order.erpId, b.scheduled_start, b.scheduled_end, this.deps.clock.now()),
      message: { what: 'scheduled' },
    });
  }

  async assign(ctx: MutationContext, id: string, b: { technician_id: string }) {
    const j = await this.reader.load(ctx.principal, id);
    assertOpen(j.order.stage.key, 'reassigned');
    const tech = await this.reader.inTenant(ctx.principal, (tx) => this.technician(tx, b.technician_id));
    const person = await this.personFor(j.erp, tech);
    return this.write(ctx, j, 'job.assign', ['POST', `/jobs/${id}/assign`, b], {
      applied: (o) => o.personId === person,
      vals: { person_id: person },
      commit: async (tx) => {
        await insertTechnician(tx, ctx.principal.tenantId, b.technician_id, person);
        return j.row;
      },
      detail: { technician_id: b.technician_id },
    });
  }

  async stage(ctx: MutationContext, id: string, b: { stage: StageKey; eta_minutes?: number | undefined }) {
    const p = ctx.principal;
    if (p.role === 'technician' && b.stage !== 'done' && !TECHNICIAN_STAGES.includes(b.stage))
      throw new AppError('ROLE_FORBIDDEN', `Your role (technician) may not move a job to ${b.stage}.`, {
        details: { required_roles: ['owner', 'admin', 'office'] },
      });
    if (b.eta_minutes !== undefined && b.stage !== 'travel')
      throw refused('eta_minutes', 'travel_only', 'eta_minutes goes with the stage travel ("On my way").');
    const j = await this.reader.load(p, id);
    const stages = await fsmStages(j.erp);
    return this.write(ctx, j, 'job.stage', ['POST', `/jobs/${id}/stage`, b], {
      ...stageMessage(b),
      applied: (o) => o.stage.key === b.stage,
      check: () => assertMove(j.order.stage.key, b.stage),
      vals: b.stage === 'cancelled' ? 'action_cancel' : { stage_id: stages.idOf(b.stage) },
      detail: { from: j.order.stage.key, to: b.stage },
      ...(b.stage === 'done' ? { event: jobCompleted(id, j.order.erpId, null, this.deps.clock.now()) } : {}),
    });
  }

  async complete(ctx: MutationContext, id: string, b: { resolution: string }) {
    const j = await this.reader.load(ctx.principal, id);
    return this.write(ctx, j, 'job.complete', ['POST', `/jobs/${id}/complete`, b], {
      applied: (o) => o.stage.key === 'done',
      check: () => assertOpen(j.order.stage.key, 'completed'),
      // Completing goes on whatever else changed meanwhile: the resolution is written just before.
      alwaysReapply: true,
      vals: ['action_complete', { resolution: b.resolution }],
      detail: { resolution_chars: b.resolution.length },
      event: jobCompleted(id, j.order.erpId, b.resolution, this.deps.clock.now()),
      message: { what: 'completed' },
    });
  }

  private write(ctx: MutationContext, j: LoadedJob, action: string, request: unknown, w: OrderChange): Promise<Answer> {
    return changeOrder(this.deps, this.reader, ctx, j, { action, request, ...w });
  }
}

/** The stage moves the customer hears of: on the way (with the estimate), cancelled, done. */
function stageMessage(b: { stage: StageKey; eta_minutes?: number | undefined }): Pick<OrderChange, 'message'> {
  if (b.stage === 'travel' && b.eta_minutes !== undefined)
    return { message: { what: 'on_my_way', etaMinutes: b.eta_minutes } };
  if (b.stage === 'cancelled') return { message: { what: 'cancelled' } };
  return b.stage === 'done' ? { message: { what: 'completed' } } : {};
}

const sameInstant = (a: string | null, b: string) =>
  a !== null && Math.floor(Date.parse(a) / 1000) === Math.floor(Date.parse(b) / 1000);
