/**
 * How a public submission becomes ERP records (the spec leaves this open; docs/lead-mapping.md).
 * Pure functions: ids of partners, tags and UTM records are resolved by the caller.
 */
import type { EstimatePayload, HelpdeskPayload } from '@platform/contracts';
import { escapeHtml } from '@platform/web/escape-html.js';

export const XMLID_MODULE = 'platform_intake';

/** The external id that makes delivery idempotent: `platform_intake.submission_<uuid hex>`. */
export const xmlIdName = (submissionId: string): string => `submission_${submissionId.replace(/-/g, '')}`;
/** Written into the record's description in the same create, so a lost reply can still be matched. */
export const referenceMarker = (submissionId: string): string => `platform-submission:${submissionId}`;
/**
 * The marker as written: its own paragraph. Visitor text is HTML-escaped, so a message can never
 * contain this exact markup and make a retry mistake it for another submission's record.
 */
export const referenceParagraph = (submissionId: string): string => `<p>${referenceMarker(submissionId)}</p>`;

export const productLabel = (slug: string): string =>
  slug
    .split('-')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');

export function leadName(p: EstimatePayload): string {
  const what = p.tags.includes('PHONE CALLBACK')
    ? 'Callback request'
    : p.products.length
      ? p.products.map(productLabel).join(', ')
      : 'Estimate request';
  return `${what} – ${p.contact.name}`.slice(0, 250);
}

function paragraphs(text: string | null): string {
  return text
    ? text
        .split(/\n{2,}/)
        .map((para) => `<p>${escapeHtml(para).replace(/\n/g, '<br>')}</p>`)
        .join('')
    : '';
}

function list(items: [string, string | null | undefined][]): string {
  const li = items.filter(([, v]) => v).map(([k, v]) => `<li>${escapeHtml(k)}: ${escapeHtml(String(v))}</li>`);
  return li.length ? `<ul>${li.join('')}</ul>` : '';
}

export function estimateDescription(p: EstimatePayload): string {
  const a = p.attribution;
  return [
    paragraphs(p.message),
    list([
      ['Products', p.products.map(productLabel).join(', ')],
      ['ZIP', p.contact.zip],
      ['Form', p.formSource.raw],
      ['Landing page', a.lp_slug],
      ['Campaign', [a.utm_source, a.utm_medium, a.utm_campaign].filter(Boolean).join(' / ')],
      ['Global Privacy Control', p.gpc ? 'on (do not sell or share)' : null],
    ]),
    referenceParagraph(p.submissionId),
  ].join('');
}

/** City, state and country the ERP knows for the visitor's ZIP (postal-address.ts, erp-lookup.ts). */
export interface ResolvedAddress {
  city: string | null;
  stateId: number | false;
  countryId: number | false;
}

/** Odoo's address fields for a resolved ZIP; nothing when the ZIP told nothing. */
export function addressValues(a: ResolvedAddress | undefined): Record<string, unknown> {
  if (!a) return {};
  return {
    ...(a.city ? { city: a.city } : {}),
    ...(a.stateId ? { state_id: a.stateId } : {}),
    ...(a.countryId ? { country_id: a.countryId } : {}),
  };
}

export interface ResolvedLeadRefs {
  partnerId: number;
  tagIds: number[];
  address?: ResolvedAddress;
  /** utm.source / utm.medium / utm.campaign ids, when structured attribution is on. */
  utm?: { sourceId: number | false; mediumId: number | false; campaignId: number | false };
}

/** `crm.lead` values. The 8 structured fields and the UTM many2ones only when the switch is on. */
export function leadValues(p: EstimatePayload, refs: ResolvedLeadRefs, structured: boolean): Record<string, unknown> {
  const v: Record<string, unknown> = {
    name: leadName(p),
    type: 'lead',
    contact_name: p.contact.name,
    email_from: p.contact.email ?? false,
    phone: p.contact.phone ?? false,
    zip: p.contact.zip ?? false,
    partner_id: refs.partnerId,
    description: estimateDescription(p),
    tag_ids: [[6, 0, refs.tagIds]],
    ...addressValues(refs.address),
  };
  if (!structured) return v;
  const a = p.attribution;
  const fs = p.formSource;
  Object.assign(v, {
    x_form_source: fs.raw,
    x_form_magnet_popup: fs.kind === 'magnet' && fs.widget === 'popup' ? fs.raw : false,
    x_gclid: a.gclid ?? false,
    x_gbraid: a.gbraid ?? false,
    x_wbraid: a.wbraid ?? false,
    x_fbclid: a.fbclid ?? false,
    x_utm_term: a.utm_term ?? false,
    x_utm_content: a.utm_content ?? false,
    x_lp_slug: a.lp_slug ?? (fs.kind === 'lp_v2' ? fs.slug : false),
  });
  if (refs.utm)
    Object.assign(v, { source_id: refs.utm.sourceId, medium_id: refs.utm.mediumId, campaign_id: refs.utm.campaignId });
  return v;
}

export function ticketValues(p: HelpdeskPayload, partnerId: number, teamId: number | false): Record<string, unknown> {
  return {
    name: p.subject,
    description: [
      paragraphs(p.message),
      list([
        ['From', `${p.contact.name} <${p.contact.email}>`],
        ['Phone', p.contact.phone],
      ]),
      referenceParagraph(p.submissionId),
    ].join(''),
    partner_id: partnerId,
    partner_name: p.contact.name,
    partner_email: p.contact.email,
    team_id: teamId,
  };
}

export function partnerValues(
  c: { name: string; email: string | null; phone: string | null; zip?: string | null },
  address?: ResolvedAddress,
): Record<string, unknown> {
  return {
    name: c.name,
    email: c.email ?? false,
    phone: c.phone ?? false,
    zip: c.zip ?? false,
    ...addressValues(address),
  };
}
