/**
 * LeadDeliveryService against a real embedded ERP over HTTP (Odoo JSON-RPC adapter): records,
 * partners and tags created once, redelivery and lost replies, rejected and unreachable ERPs.
 */
import { createOdooErp, type Erp } from '@platform/erp';
import { freePort, registryWithout, startTestErp, type TestErp } from '@platform/erp-embedded/testing';
import { AppError } from '@platform/kernel';
import { PermanentFailure } from '@platform/outbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { estimatePayload, helpdeskPayload } from '../../../test/support/payloads.js';
import { LeadDeliveryService } from './lead-delivery.service.js';
import { referenceMarker, XMLID_MODULE, xmlIdName } from './lead-mapping.js';

let server: TestErp;
let erp: Erp;
const delivered: [string, string, number][] = [];
const recorder = { markDelivered: async (s: string, m: string, id: number) => void delivered.push([s, m, id]) };
const service = (structured = false, to: () => Erp = () => erp) => new LeadDeliveryService(to, recorder, structured);

beforeAll(async () => {
  server = await startTestErp();
  erp = server.erp;
}, 180_000); // booting PGlite and creating the ERP schema is slow on a loaded machine
afterAll(async () => server?.close());

const leadsOf = (submissionId: string) =>
  erp.searchRead('crm.lead', [['description', 'ilike', referenceMarker(submissionId)]], {
    fields: ['name', 'partner_id', 'tag_ids', 'email_from', 'active'],
    context: { active_test: false },
  });
const externalIds = (submissionId: string) =>
  erp.searchRead(
    'ir.model.data',
    [
      ['module', '=', XMLID_MODULE],
      ['name', '=', xmlIdName(submissionId)],
    ],
    { fields: ['model', 'res_id'] },
  );
const tagNames = async (ids: unknown) =>
  (await erp.read('crm.tag', ids as number[], ['name'])).map((t) => t.name).sort();

describe('estimates', () => {
  it('become one crm.lead with its partner and tags, linked to the submission and recorded as delivered', async () => {
    const p = estimatePayload({ formSource: 'home_popup_exit_phone1', products: ['vertical-blinds'] });
    const r = await service().deliverEstimate(p);
    expect(r).toMatchObject({ model: 'crm.lead', duplicate: false });
    const [lead, ...more] = await leadsOf(p.submissionId);
    expect(more).toHaveLength(0);
    expect(lead).toMatchObject({ id: r.id, name: `Callback request – ${p.contact.name}`, email_from: p.contact.email });
    const [partner] = await erp.read(
      'res.partner',
      [(lead!.partner_id as [number, string])[0]],
      ['name', 'email', 'phone'],
    );
    expect(partner).toMatchObject({ name: 'Jane Doe', email: p.contact.email, phone: p.contact.phone });
    expect(await tagNames(lead!.tag_ids)).toEqual(['PHONE CALLBACK', 'SITE: ACME']);
    expect(await externalIds(p.submissionId)).toMatchObject([{ model: 'crm.lead', res_id: r.id }]);
    expect(delivered).toContainEqual([p.submissionId, 'crm.lead', r.id]);
  });

  it('takes city, state and country from a US ZIP onto the lead and its new partner', async () => {
    const p = estimatePayload({ contact: { email: `zip-${Date.now()}@example.com`, zip: '80211' } });
    const r = await service().deliverEstimate(p);
    const [lead] = await erp.read('crm.lead', [r.id], ['zip', 'city', 'state_id', 'country_id', 'partner_id']);
    expect(lead).toMatchObject({ zip: '80211', city: 'Denver', state_id: [expect.any(Number), 'Colorado (US)'] });
    expect((lead!.country_id as [number, string])[1]).toMatch(/^United States/);
    const [partner] = await erp.read(
      'res.partner',
      [(lead!.partner_id as [number])[0]],
      ['zip', 'city', 'state_id', 'country_id'],
    );
    expect(partner).toMatchObject({
      zip: '80211',
      city: 'Denver',
      state_id: lead!.state_id,
      country_id: lead!.country_id,
    });
  });

  it('a second submission from the same email (other case) reuses the partner and the tags', async () => {
    const first = estimatePayload();
    const second = estimatePayload({ contact: { email: first.contact.email!.toUpperCase(), name: 'J. Doe' } });
    const a = await service().deliverEstimate(first);
    const b = await service().deliverEstimate(second);
    expect(b.id).not.toBe(a.id);
    const [la] = await leadsOf(first.submissionId);
    const [lb] = await leadsOf(second.submissionId);
    expect((lb!.partner_id as [number])[0]).toBe((la!.partner_id as [number])[0]);
    expect(await erp.searchCount('res.partner', [['email', '=ilike', first.contact.email]])).toBe(1);
    expect(await erp.searchCount('crm.tag', [['name', '=', 'SITE: ACME']])).toBe(1);
  });

  it('an email with "_" is not matched to a partner whose email differs at that character', async () => {
    const other = estimatePayload({ contact: { email: `first1last.${Date.now()}@example.com` } });
    const mine = estimatePayload({ contact: { email: other.contact.email!.replace('1', '_') } });
    await service().deliverEstimate(other);
    await service().deliverEstimate(mine);
    const [lead] = await leadsOf(mine.submissionId);
    const [partner] = await erp.read('res.partner', [(lead!.partner_id as [number])[0]], ['email']);
    expect(partner!.email).toBe(mine.contact.email);
  });

  it('with structured attribution on, the UTM records are found or created and the fields written', async () => {
    const attribution = {
      utm_source: 'google',
      utm_medium: 'cpc',
      utm_campaign: 'spring',
      gclid: 'G-1',
      lp_slug: 'spring',
    };
    const p = estimatePayload({ formSource: 'gallery_magnet_lookbook_popup', attribution });
    const again = estimatePayload({ attribution });
    const { id } = await service(true).deliverEstimate(p);
    await service(true).deliverEstimate(again);
    const [lead] = await erp.read(
      'crm.lead',
      [id],
      ['source_id', 'medium_id', 'campaign_id', 'x_gclid', 'x_form_magnet_popup', 'x_lp_slug'],
    );
    expect(lead).toMatchObject({
      source_id: [expect.any(Number), 'google'],
      medium_id: [expect.any(Number), 'cpc'],
      campaign_id: [expect.any(Number), 'spring'],
      x_gclid: 'G-1',
      x_form_magnet_popup: 'gallery_magnet_lookbook_popup',
      x_lp_slug: 'spring',
    });
    expect(await erp.searchCount('utm.source', [['name', '=', 'google']])).toBe(1);
  });
});

describe('helpdesk requests', () => {
  it('become a helpdesk.ticket on the first team, with its partner', async () => {
    const p = helpdeskPayload();
    const r = await service().deliverHelpdesk(p);
    expect(r).toMatchObject({ model: 'helpdesk.ticket', duplicate: false });
    const [team] = await erp.searchRead('helpdesk.team', [], { fields: ['name'], limit: 1 });
    const [ticket] = await erp.read(
      'helpdesk.ticket',
      [r.id],
      ['name', 'team_id', 'partner_id', 'partner_email', 'description'],
    );
    expect(ticket).toMatchObject({ name: p.subject, team_id: [team!.id, team!.name], partner_email: p.contact.email });
    const [partner] = await erp.read('res.partner', [(ticket!.partner_id as [number])[0]], ['email']);
    expect(partner!.email).toBe(p.contact.email);
    expect(ticket!.description).toContain(referenceMarker(p.submissionId));
    expect(delivered).toContainEqual([p.submissionId, 'helpdesk.ticket', r.id]);
  });

  it("go to the tenant's own helpdesk team when the payload names one, else to the first team", async () => {
    const own = await erp.create('helpdesk.team', { name: 'Alpha Service Desk' });
    const r = await service().deliverHelpdesk({ ...helpdeskPayload(), helpdeskTeamId: own });
    const [ticket] = await erp.read('helpdesk.ticket', [r.id], ['team_id']);
    expect((ticket!.team_id as [number, string])[0]).toBe(own);
    const [first] = await erp.search('helpdesk.team', [], { limit: 1 });
    const gone = await service().deliverHelpdesk({ ...helpdeskPayload(), helpdeskTeamId: 999_999 });
    const [fallback] = await erp.read('helpdesk.ticket', [gone.id], ['team_id']);
    expect((fallback!.team_id as [number, string])[0]).toBe(first);
  });
});

describe('redelivery', () => {
  it('the same estimate delivered twice yields one lead, the second time a duplicate', async () => {
    const p = estimatePayload();
    const first = await service().deliverEstimate(p);
    const second = await service().deliverEstimate(p);
    expect(second).toEqual({ model: 'crm.lead', id: first.id, duplicate: true });
    expect(await leadsOf(p.submissionId)).toHaveLength(1);
  });

  it('the same helpdesk request delivered twice yields one ticket', async () => {
    const p = helpdeskPayload();
    const first = await service().deliverHelpdesk(p);
    expect(await service().deliverHelpdesk(p)).toEqual({ model: 'helpdesk.ticket', id: first.id, duplicate: true });
    expect(await erp.searchCount('helpdesk.ticket', [['description', 'ilike', referenceMarker(p.submissionId)]])).toBe(
      1,
    );
  });

  it('after a lost reply (lead created, external id missing) the retry finds the lead by its marker', async () => {
    const p = estimatePayload();
    const { id } = await service().deliverEstimate(p);
    await erp.unlink(
      'ir.model.data',
      (await externalIds(p.submissionId)).map((x) => x.id),
    );
    expect(await service().deliverEstimate(p)).toEqual({ model: 'crm.lead', id, duplicate: true });
    expect(await leadsOf(p.submissionId)).toHaveLength(1);
    expect(await externalIds(p.submissionId)).toMatchObject([{ res_id: id }]); // linked again
    expect(delivered.filter(([s]) => s === p.submissionId)).toEqual([
      [p.submissionId, 'crm.lead', id],
      [p.submissionId, 'crm.lead', id],
    ]);
  });

  it('finds the lead by its marker even when a salesperson archived it meanwhile', async () => {
    const p = estimatePayload();
    const { id } = await service().deliverEstimate(p);
    await erp.write('crm.lead', [id], { active: false });
    await erp.unlink(
      'ir.model.data',
      (await externalIds(p.submissionId)).map((x) => x.id),
    );
    expect(await service().deliverEstimate(p)).toEqual({ model: 'crm.lead', id, duplicate: true });
    expect(await leadsOf(p.submissionId)).toMatchObject([{ id, active: false }]);
  });
});

describe('failures', { timeout: 60_000 }, () => {
  it('an ERP that rejects the values (no structured attribution fields) is a permanent failure', async () => {
    const legacy = await startTestErp({
      registry: registryWithout('crm.lead', ['x_gclid', 'x_form_source']),
      db: server.db,
      dbName: 'legacy',
    });
    try {
      const p = estimatePayload({ attribution: { gclid: 'G-9' } });
      const err = await service(true, () => legacy.erp)
        .deliverEstimate(p)
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(PermanentFailure);
      expect((err as Error).message).toMatch(/^ERP_REJECTED: .*x_(gclid|form_source)/);
      expect(((err as Error).cause as AppError).code).toBe('ERP_REJECTED');
      expect(await legacy.erp.searchCount('crm.lead', [])).toBe(0);
      expect(delivered.some(([s]) => s === p.submissionId)).toBe(false);
      // The same ERP takes the lead when the switch is off.
      expect(await service(false, () => legacy.erp).deliverEstimate(p)).toMatchObject({ duplicate: false });
    } finally {
      await legacy.close();
    }
  });

  it('an unreachable ERP is ERP_UNAVAILABLE, to be retried, not a permanent failure', async () => {
    const down = createOdooErp({
      url: `http://127.0.0.1:${await freePort()}`,
      db: server.dbName,
      login: 'admin',
      secret: server.apiKey,
    });
    const p = estimatePayload();
    const err = await service(false, () => down)
      .deliverEstimate(p)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).not.toBeInstanceOf(PermanentFailure);
    expect((err as AppError).code).toBe('ERP_UNAVAILABLE');
    expect(delivered.some(([s]) => s === p.submissionId)).toBe(false);
  });
});
