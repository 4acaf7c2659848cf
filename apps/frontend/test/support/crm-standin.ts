/** The contract's /crm for the office views' tests: leads list, stages, stage moves and conversion. */
export interface StandinLead {
  id: number;
  name: string;
  contact_name: string;
  email: string;
  phone: string;
  source: string;
  stage: { id: number; name: string };
  type: string;
  callback: boolean;
  attribution: Record<string, string | null>;
  create_date: string;
}

const STAGES = [
  { id: 1, name: 'New' },
  { id: 2, name: 'Qualified' },
  { id: 3, name: 'Proposition' },
];

export function crmAnswer(
  leads: StandinLead[],
  method: string,
  path: string,
  body: Record<string, unknown>,
): { status: number; body: unknown } {
  if (path === '/crm/stages') return { status: 200, body: { items: STAGES } };
  if (path === '/crm/leads' && method === 'GET')
    return { status: 200, body: { items: leads, page: 1, page_size: 50, total: leads.length } };
  const m = /^\/crm\/leads\/(\d+)(\/convert)?$/.exec(path);
  const lead = m ? leads.find((l) => l.id === Number(m[1])) : undefined;
  if (!m || !lead) return { status: 404, body: { code: 'NOT_FOUND' } };
  if (m[2]) {
    lead.type = 'opportunity';
    return { status: 200, body: { opportunity_id: lead.id, partner_id: 7 } };
  }
  if (method === 'PATCH') lead.stage = STAGES.find((s) => s.id === body.stage_id) ?? lead.stage;
  return { status: 200, body: lead };
}
