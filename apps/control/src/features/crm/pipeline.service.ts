/**
 * The pipeline follows the work: a quote sent for a lead moves the lead to the tenant's "sent" stage,
 * an accepted quote to its "accepted" stage. Per tenant, each event names an ERP stage (or none: do
 * not move); by default the ERP's own stages: "Proposition" when sent, the won stage when accepted.
 * A lead only moves forward (a lead already past the stage stays where it is), and a move is audited.
 */
import { type Db, withTenant } from '@platform/db';
import { AppError } from '@platform/kernel';

import type { AuditLog } from '../audit/audit-log.js';
import type { Principal } from '../auth/principal.js';
import type { TenantErps } from '../tenants/tenant-erps.js';
import * as crm from './crm-erp.js';
import { type PipelineEvent, resetRule, rulesOf, setRule } from './pipeline-rules.repo.js';

type Stage = Awaited<ReturnType<typeof crm.listStages>>[number];
export type QuoteEvent = 'sent' | 'accepted';

const EVENTS: Record<QuoteEvent, PipelineEvent> = { sent: 'quote_sent', accepted: 'quote_accepted' };
const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

function defaultStage(event: PipelineEvent, stages: Stage[]): Stage | undefined {
  if (event === 'quote_sent') return stages.find((s) => same(s.name, 'Proposition'));
  return stages.find((s) => s.is_won) ?? stages.find((s) => same(s.name, 'Won'));
}

/** Only forward: into the won stage from any other, else to a later stage than the current one. */
function movesForward(current: Stage | undefined, target: Stage): boolean {
  if (!current) return true;
  if (current.id === target.id || current.is_won) return false;
  return target.is_won || target.sequence > current.sequence;
}

export class PipelineService {
  constructor(
    private readonly db: Db,
    private readonly erps: TenantErps,
    private readonly audit: AuditLog,
  ) {}

  /** Each event's stage as it applies now: `{stage_name, stage_id, default}` (stage_id null: none). */
  async rules(tenantId: string) {
    const stages = await crm.listStages(await this.erps.forTenant(tenantId));
    const set = await withTenant(this.db, tenantId, (tx) => rulesOf(tx, tenantId));
    const view = (e: PipelineEvent) => {
      const custom = e in set;
      const name = set[e];
      const stage = custom ? (name ? stages.find((s) => same(s.name, name)) : undefined) : defaultStage(e, stages);
      return {
        stage_name: custom ? (name ?? null) : (stage?.name ?? null),
        stage_id: stage?.id ?? null,
        default: !custom,
      };
    };
    return { quote_sent: view('quote_sent'), quote_accepted: view('quote_accepted') };
  }

  /** Sets (a stage name, or null: do not move) or resets (`"default"`) each event's stage. */
  async setRules(p: Principal, patch: Partial<Record<PipelineEvent, string | null>>, ip?: string) {
    const stages = await crm.listStages(await this.erps.forTenant(p.tenantId));
    const issues = Object.entries(patch).flatMap(([event, name]) =>
      typeof name === 'string' && name !== 'default' && !stages.some((s) => same(s.name, name))
        ? [{ field: event, rule: 'exists', message: `the ERP has no stage named “${name}”` }]
        : [],
    );
    if (issues.length)
      throw new AppError('VALIDATION_FAILED', 'A stage named in the rules does not exist in the ERP.', {
        fieldIssues: issues,
      });
    await withTenant(this.db, p.tenantId, async (tx) => {
      for (const [event, name] of Object.entries(patch) as [PipelineEvent, string | null][])
        if (name === 'default') await resetRule(tx, p.tenantId, event);
        else await setRule(tx, p.tenantId, event, name);
      await this.audit.record(tx, {
        tenantId: p.tenantId,
        actor: { kind: 'user', id: p.userId },
        action: 'crm.pipeline.update',
        ...(ip ? { ip } : {}),
        detail: patch,
      });
    });
    return this.rules(p.tenantId);
  }

  /** Moves the lead of a quote after `event`; a lead gone or already further along is left alone. */
  async follow(tenantId: string, leadId: number, event: QuoteEvent): Promise<void> {
    const erp = await this.erps.forTenant(tenantId);
    const stages = await crm.listStages(erp);
    const set = await withTenant(this.db, tenantId, (tx) => rulesOf(tx, tenantId));
    const e = EVENTS[event];
    const name = set[e];
    const target = e in set ? (name ? stages.find((s) => same(s.name, name)) : undefined) : defaultStage(e, stages);
    if (!target) return;
    const lead = await crm.readLead(erp, leadId);
    if (!lead) return;
    const currentId = Array.isArray(lead.row.stage_id) ? (lead.row.stage_id[0] as number) : undefined;
    const current = stages.find((s) => s.id === currentId);
    if (!movesForward(current, target)) return;
    await crm.writeLead(erp, leadId, { stage_id: target.id });
    await withTenant(this.db, tenantId, (tx) =>
      this.audit.record(tx, {
        tenantId,
        actor: { kind: 'system' },
        action: 'crm.lead.stage_follow',
        target: { type: 'crm.lead', id: leadId },
        detail: { event: e, from: current?.name ?? null, to: target.name },
      }),
    );
  }
}
