/**
 * The office's leads and opportunities: listed and read from the tenant's ERP, moved between stages,
 * assigned, converted to an opportunity with its customer. Each change is audited.
 */
import type { Db } from '@platform/db';
import type { ErpRecord } from '@platform/erp';
import { AppError, type FieldIssue } from '@platform/kernel';
import { escapeHtml } from '@platform/web/escape-html.js';

import type { AuditLog } from '../audit/audit-log.js';
import type { Principal } from '../auth/principal.js';
import type { BranchesService } from '../branches/branches.service.js';
import type { TenantErps } from '../tenants/tenant-erps.js';
import * as crm from './crm-erp.js';

export interface LeadPatch {
  stage_id?: number | undefined;
  user_id?: number | null | undefined;
  priority?: '0' | '1' | '2' | '3' | undefined;
  description?: string | undefined;
}

const m2o = (v: unknown) => (Array.isArray(v) ? { id: v[0] as number, name: String(v[1]) } : null);
const str = (v: unknown) => (typeof v === 'string' && v ? v : null);
const textToHtml = (t: string) =>
  t
    .split(/\n{2,}/)
    .filter(Boolean)
    .map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`)
    .join('');
const notFound = () => new AppError('NOT_FOUND', 'No such lead.');

export function leadView(r: ErpRecord, tags: Map<number, string>) {
  const tagList = (Array.isArray(r.tag_ids) ? (r.tag_ids as number[]) : []).map((id) => tags.get(id) ?? String(id));
  const source = m2o(r.source_id);
  return {
    id: r.id,
    name: String(r.name),
    contact_name: str(r.contact_name),
    email: str(r.email_from),
    phone: str(r.phone),
    street: str(r.street),
    city: str(r.city),
    zip: str(r.zip),
    source: str(r.x_form_source) ?? source?.name ?? null,
    tags: tagList,
    stage: m2o(r.stage_id),
    type: String(r.type),
    callback: tagList.includes(crm.CALLBACK_TAG),
    priority: str(r.priority),
    assignee: m2o(r.user_id),
    partner: m2o(r.partner_id),
    attribution: {
      form_source: str(r.x_form_source),
      utm_source: source?.name ?? null,
      utm_medium: m2o(r.medium_id)?.name ?? null,
      utm_campaign: m2o(r.campaign_id)?.name ?? null,
      utm_term: str(r.x_utm_term),
      utm_content: str(r.x_utm_content),
      gclid: str(r.x_gclid),
      gbraid: str(r.x_gbraid),
      wbraid: str(r.x_wbraid),
      lp_slug: str(r.x_lp_slug),
    },
    create_date: str(r.create_date),
  };
}

export class CrmService {
  constructor(
    private readonly db: Db,
    private readonly erps: TenantErps,
    private readonly audit: AuditLog,
    private readonly branches?: Pick<BranchesService, 'lens'>,
  ) {}

  /**
   * A page of the inbox: narrowed to `branch` when given, and always to the branches of a person
   * limited to theirs; each lead names its branch when the tenant has branches.
   */
  async list(p: Principal, f: crm.LeadFilter & { branch?: string }, page: number, pageSize: number) {
    const { branch, ...filter } = f;
    const { domain: scope, label } = this.branches ? await this.branches.lens(p, 'zip', branch) : { domain: null };
    const erp = await this.erps.forTenant(p.tenantId);
    const { rows, total, tags } = await crm.searchLeads(
      erp,
      { ...filter, ...(scope ? { scope } : {}) },
      page,
      pageSize,
    );
    const items = rows.map((r) => ({ ...leadView(r, tags), ...(label ? { branch: label(r.zip) } : {}) }));
    return { items, page, page_size: pageSize, total };
  }

  async stages(tenantId: string) {
    return { items: await crm.listStages(await this.erps.forTenant(tenantId)) };
  }

  async get(tenantId: string, id: number) {
    const erp = await this.erps.forTenant(tenantId);
    const found = await crm.readLead(erp, id);
    if (!found) throw notFound();
    return { ...leadView(found.row, found.tags), description: str(found.row.description) };
  }

  private record(p: Principal, action: string, id: number, ip: string | undefined, detail: Record<string, unknown>) {
    return this.audit.recordUserAction(this.db, p, {
      action,
      target: { type: 'crm.lead', id },
      ...(ip ? { ip } : {}),
      detail,
    });
  }

  async update(p: Principal, id: number, patch: LeadPatch, ip?: string) {
    const erp = await this.erps.forTenant(p.tenantId);
    if (!(await crm.readLead(erp, id))) throw notFound();
    const issues: FieldIssue[] = [];
    if (patch.stage_id !== undefined && !(await crm.exists(erp, 'crm.stage', patch.stage_id)))
      issues.push({ field: 'stage_id', rule: 'exists', message: 'no stage with this id' });
    if (typeof patch.user_id === 'number' && !(await crm.exists(erp, 'res.users', patch.user_id)))
      issues.push({ field: 'user_id', rule: 'exists', message: 'no ERP user with this id' });
    if (issues.length)
      throw new AppError('VALIDATION_FAILED', 'The change names records that do not exist.', { fieldIssues: issues });
    const values: Record<string, unknown> = {};
    if (patch.stage_id !== undefined) values.stage_id = patch.stage_id;
    if (patch.user_id !== undefined) values.user_id = patch.user_id ?? false;
    if (patch.priority !== undefined) values.priority = patch.priority;
    // Notes are plain text from the office; the ERP field is HTML, so the text is escaped into paragraphs.
    if (patch.description !== undefined) values.description = textToHtml(patch.description);
    if (Object.keys(values).length) await crm.writeLead(erp, id, values);
    await this.record(p, 'crm.lead.update', id, ip, { fields: Object.keys(values) });
    return this.get(p.tenantId, id);
  }

  /** Lead → opportunity with its customer; converting an opportunity again answers the same. */
  async convert(p: Principal, id: number, ip?: string) {
    const erp = await this.erps.forTenant(p.tenantId);
    const found = await crm.readLead(erp, id);
    if (!found) throw notFound();
    const partnerId = await crm.partnerForLead(erp, found.row);
    const already = found.row.type === 'opportunity' && Array.isArray(found.row.partner_id);
    if (!already) await crm.writeLead(erp, id, { type: 'opportunity', partner_id: partnerId });
    await this.record(p, 'crm.lead.convert', id, ip, { partner_id: partnerId, already_converted: already });
    return { opportunity_id: id, partner_id: partnerId };
  }
}
