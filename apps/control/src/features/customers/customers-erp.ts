/**
 * Customers in the tenant's ERP: contacts (`res.partner`) other than the company's own and its
 * users', with what hangs off them: leads (`crm.lead.partner_id`, or a lead with their email),
 * quotes (`sale.order.partner_id`), jobs (`fsm.order` at an `fsm.location` whose partner they are)
 * and the chatter (`mail.message` on the partner and their leads). Everything speaks the ERP port.
 */
import type { Domain, DomainLeaf, Erp, ErpRecord } from '@platform/erp';

const PARTNER_FIELDS = ['name', 'email', 'phone', 'mobile', 'street', 'city', 'zip', 'create_date'];
const NO_ACTIVE_TEST = { active_test: false };

const m2o = (v: unknown) => (Array.isArray(v) ? { id: v[0] as number, name: String(v[1]) } : null);
const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);

/** Partners that are not customers: the companies' own and the users' (staff). */
async function staffPartners(erp: Erp): Promise<number[]> {
  const [users, companies] = await Promise.all([
    erp.searchRead('res.users', [], { fields: ['partner_id'], context: NO_ACTIVE_TEST }),
    erp.searchRead('res.company', [], { fields: ['partner_id'] }),
  ]);
  return [...users, ...companies].flatMap((r) => (m2o(r.partner_id) ? [m2o(r.partner_id)!.id] : []));
}

/** Numbers are kept as typed: a search of 4+ digits matches the digits in order, whatever is between them. */
export function phonePattern(q: string): string | undefined {
  const digits = q.replace(/\D/g, '');
  if (digits.length < 4 || /[^\d\s()+.-]/.test(q)) return undefined;
  return digits.slice(-10).split('').join('%');
}

/** Any of the leaves (Odoo's prefix notation: n-1 ORs before them). */
const anyOf = (leaves: DomainLeaf[]): Domain => [...Array<'|'>(Math.max(leaves.length - 1, 0)).fill('|'), ...leaves];

function searchDomain(q: string | undefined): Domain {
  if (!q) return [];
  const fields = ['name', 'email', 'phone', 'mobile', 'street', 'city', 'zip'];
  const terms: DomainLeaf[] = fields.map((f) => [f, 'ilike', q]);
  const digits = phonePattern(q);
  if (digits) terms.push(['phone', 'ilike', digits], ['mobile', 'ilike', digits]);
  return anyOf(terms);
}

export const customerDomain = async (erp: Erp, q?: string): Promise<Domain> => [
  ['id', 'not in', await staffPartners(erp)],
  ...searchDomain(q),
];

export function partnerView(r: ErpRecord) {
  return {
    id: r.id,
    name: String(r.name ?? ''),
    email: text(r.email),
    phone: text(r.phone) ?? text(r.mobile),
    address: { street: text(r.street), city: text(r.city), zip: text(r.zip) },
  };
}
export type CustomerSummary = ReturnType<typeof partnerView>;

/** A sale order as the office lists it beside a customer or a search: its quote (if the platform made it) and total. */
export const quoteSummary = (o: ErpRecord, quoteIds: Map<number, string>) => ({
  sale_order_id: o.id,
  quote_id: quoteIds.get(o.id) ?? null,
  name: String(o.name),
  state: String(o.state),
  amount_total: Number(o.amount_total ?? 0),
});

export async function searchCustomers(erp: Erp, q: string | undefined, page: number, pageSize: number) {
  const domain = await customerDomain(erp, q);
  const [rows, total] = await Promise.all([
    erp.searchRead('res.partner', domain, {
      fields: PARTNER_FIELDS,
      limit: pageSize,
      offset: (page - 1) * pageSize,
      order: 'name, id',
    }),
    erp.searchCount('res.partner', domain),
  ]);
  return { items: rows.map(partnerView), total };
}

/** An active customer of this ERP, or undefined (staff, archived, absent). */
export async function readCustomer(erp: Erp, id: number): Promise<ErpRecord | undefined> {
  const [row] = await erp.searchRead('res.partner', [['id', '=', id], ...(await customerDomain(erp))], {
    fields: [...PARTNER_FIELDS, 'comment'],
    limit: 1,
  });
  return row;
}

/** Other active customers with the same email (any case) or phone (same last 10 digits). */
export async function duplicatesOf(erp: Erp, c: ErpRecord): Promise<ErpRecord[]> {
  const terms: DomainLeaf[] = [];
  const email = text(c.email);
  if (email) terms.push(['email', '=ilike', email]);
  for (const n of [text(c.phone), text(c.mobile)]) {
    const p = n ? phonePattern(n) : undefined;
    if (p && p.length >= 13) terms.push(['phone', 'ilike', p], ['mobile', 'ilike', p]);
  }
  if (!terms.length) return [];
  return erp.searchRead('res.partner', [['id', '!=', c.id], ...(await customerDomain(erp)), ...anyOf(terms)], {
    fields: PARTNER_FIELDS,
    order: 'id',
    limit: 20,
  });
}

const leadDomain = (c: ErpRecord): Domain =>
  text(c.email)
    ? ['|', ['partner_id', '=', c.id], ['email_from', '=ilike', text(c.email)!]]
    : [['partner_id', '=', c.id]];

/** What hangs off a customer, newest first (at most 50 of each). */
export async function recordsOf(erp: Erp, c: ErpRecord) {
  const locations = await erp.search('fsm.location', [['partner_id', '=', c.id]], { context: NO_ACTIVE_TEST });
  const [leads, orders, jobs] = await Promise.all([
    erp.searchRead('crm.lead', leadDomain(c), {
      fields: ['name', 'type', 'stage_id', 'create_date'],
      order: 'id desc',
      limit: 50,
    }),
    erp.searchRead('sale.order', [['partner_id', '=', c.id]], {
      fields: ['name', 'state', 'amount_total', 'date_order'],
      order: 'id desc',
      limit: 50,
    }),
    locations.length
      ? erp.searchRead('fsm.order', [['location_id', 'in', locations]], {
          fields: ['name', 'stage_id', 'scheduled_date_start', 'person_id'],
          order: 'id desc',
          limit: 50,
        })
      : Promise.resolve([]),
  ]);
  const chatter = await erp.searchRead(
    'mail.message',
    [
      '|',
      '&',
      ['model', '=', 'res.partner'],
      ['res_id', '=', c.id],
      '&',
      ['model', '=', 'crm.lead'],
      ['res_id', 'in', leads.map((l) => l.id)],
    ],
    {
      fields: ['body', 'date', 'message_type', 'subtype_id', 'author_id', 'email_from', 'model'],
      order: 'id desc',
      limit: 100,
    },
  );
  return { leads, orders, jobs, chatter };
}

/**
 * A note on the customer's chatter (an internal note, as Odoo's "Log note"). The platform posts as its
 * service account: `email_from` says which office user wrote it.
 */
export const postNote = (erp: Erp, id: number, html: string, by: string) =>
  erp.call('res.partner', 'message_post', [[id]], {
    body: html,
    message_type: 'comment',
    subtype_xmlid: 'mail.mt_note',
    email_from: by,
  });

/**
 * Odoo's partner merge, for what the platform uses: the duplicate's leads, quotes and job sites go
 * to the kept customer, the kept customer's empty contact fields take the duplicate's, and the
 * duplicate is archived (kept for history, out of lists). A site takes the kept customer's name and
 * phones with it: in OCA a location IS its partner, so they follow by themselves (the write is a
 * no-op there); the embedded ERP's flat location keeps its own, which the job list shows.
 */
export async function mergeInto(erp: Erp, kept: ErpRecord, dup: ErpRecord) {
  const moved = async (model: string, field: string, extra: Record<string, unknown> = {}) => {
    const ids = await erp.search(model, [[field, '=', dup.id]], { context: NO_ACTIVE_TEST });
    if (ids.length) await erp.write(model, ids, { [field]: kept.id, ...extra });
    return ids;
  };
  const fill: Record<string, unknown> = {};
  for (const f of ['email', 'phone', 'mobile', 'street', 'city', 'zip'])
    if (!text(kept[f]) && text(dup[f])) fill[f] = dup[f];
  const contact = (f: string) => text(fill[f]) ?? text(kept[f]) ?? false;
  const leads = await moved('crm.lead', 'partner_id');
  const orders = await moved('sale.order', 'partner_id');
  const sites = await moved('fsm.location', 'partner_id', {
    name: kept.name,
    phone: contact('phone'),
    mobile: contact('mobile'),
  });
  await moved('fsm.location', 'owner_id');
  if (Object.keys(fill).length) await erp.write('res.partner', [kept.id], fill);
  await erp.write('res.partner', [dup.id], { active: false });
  return { leads, orders, sites, filled: Object.keys(fill) };
}
