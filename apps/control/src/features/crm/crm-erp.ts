/**
 * Leads and opportunities in the tenant's ERP (crm.lead), through the Erp port. The attribution
 * fields are custom (`x_`) fields a production Odoo may lack: only the fields the ERP has are read.
 */
import type { Domain, Erp, ErpRecord } from '@platform/erp';

const BASE_FIELDS = [
  'name',
  'type',
  'contact_name',
  'partner_name',
  'email_from',
  'phone',
  'street',
  'city',
  'zip',
  'tag_ids',
  'stage_id',
  'user_id',
  'partner_id',
  'priority',
  'source_id',
  'medium_id',
  'campaign_id',
  'create_date',
];
const X_FIELDS = ['x_form_source', 'x_gclid', 'x_gbraid', 'x_wbraid', 'x_utm_term', 'x_utm_content', 'x_lp_slug'];
export const CALLBACK_TAG = 'PHONE CALLBACK';

const known = new WeakMap<Erp, Promise<string[]>>();
/** The lead fields this ERP has (asked once per ERP client). */
function leadFields(erp: Erp): Promise<string[]> {
  let p = known.get(erp);
  if (!p) {
    p = erp
      .fieldsGet('crm.lead', ['type'])
      .then((f) => [...BASE_FIELDS, ...X_FIELDS].filter((n) => n in f))
      .catch((e: unknown) => {
        known.delete(erp);
        throw e;
      });
    known.set(erp, p);
  }
  return p;
}

export interface LeadFilter {
  stage?: string;
  type?: 'lead' | 'opportunity';
  q?: string;
  /** A complete domain the leads must also match (a branch's ZIP codes). */
  scope?: Domain;
}

async function domainOf(erp: Erp, f: LeadFilter): Promise<Domain> {
  const d: Domain = [];
  if (f.type) d.push(['type', '=', f.type]);
  if (f.stage)
    d.push(
      /^\d+$/.test(f.stage)
        ? ['stage_id', '=', Number(f.stage)]
        : ['stage_id', 'in', await erp.search('crm.stage', [['name', 'ilike', f.stage]])],
    );
  if (f.q)
    d.push(
      '|',
      '|',
      '|',
      ['name', 'ilike', f.q],
      ['contact_name', 'ilike', f.q],
      ['email_from', 'ilike', f.q],
      ['phone', 'ilike', f.q],
    );
  if (f.scope) d.push(...f.scope);
  return d;
}

export async function searchLeads(erp: Erp, f: LeadFilter, page: number, pageSize: number) {
  const fields = await leadFields(erp);
  const domain = await domainOf(erp, f);
  const [rows, total] = await Promise.all([
    erp.searchRead('crm.lead', domain, {
      fields,
      limit: pageSize,
      offset: (page - 1) * pageSize,
      order: 'create_date desc, id desc',
    }),
    erp.searchCount('crm.lead', domain),
  ]);
  return { rows, total, tags: await tagNames(erp, rows) };
}

export async function readLead(
  erp: Erp,
  id: number,
): Promise<{ row: ErpRecord; tags: Map<number, string> } | undefined> {
  const fields = [...(await leadFields(erp)), 'description'];
  const rows = await erp.searchRead('crm.lead', [['id', '=', id]], { fields, limit: 1 });
  if (!rows[0]) return undefined;
  return { row: rows[0], tags: await tagNames(erp, rows) };
}

async function tagNames(erp: Erp, rows: ErpRecord[]): Promise<Map<number, string>> {
  const ids = [...new Set(rows.flatMap((r) => (Array.isArray(r.tag_ids) ? (r.tag_ids as number[]) : [])))];
  if (!ids.length) return new Map();
  return new Map((await erp.read('crm.tag', ids, ['name'])).map((t) => [t.id, String(t.name)]));
}

export async function exists(erp: Erp, model: string, id: number): Promise<boolean> {
  return (await erp.search(model, [['id', '=', id]], { limit: 1 })).length === 1;
}

export function writeLead(erp: Erp, id: number, values: Record<string, unknown>): Promise<boolean> {
  return erp.write('crm.lead', [id], values);
}

/** The lead's customer: its partner if it has one, else the partner with its email, else a new one. */
export async function partnerForLead(erp: Erp, lead: ErpRecord): Promise<number> {
  if (Array.isArray(lead.partner_id)) return lead.partner_id[0] as number;
  const email = typeof lead.email_from === 'string' && lead.email_from ? lead.email_from : undefined;
  if (email) {
    const found = await erp.search('res.partner', [['email', '=ilike', email]], { limit: 1, order: 'id' });
    if (found[0]) return found[0];
  }
  const name = [lead.contact_name, lead.partner_name, lead.name].find((v) => typeof v === 'string' && v) as string;
  return erp.create('res.partner', {
    name,
    email: email ?? false,
    phone: typeof lead.phone === 'string' ? lead.phone : false,
    customer_rank: 1,
  });
}

/** The pipeline's stages in order (for moving a lead). */
export async function listStages(erp: Erp) {
  const rows = await erp.searchRead('crm.stage', [], { fields: ['name', 'sequence', 'is_won', 'fold'] });
  return rows.map((r) => ({
    id: r.id,
    name: String(r.name),
    sequence: Number(r.sequence ?? 0),
    is_won: r.is_won === true,
  }));
}
