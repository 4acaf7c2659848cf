/**
 * Delivers accepted submissions to the ERP: estimates as crm.lead, helpdesk requests as
 * helpdesk.ticket, each with its partner. Idempotent: an external id (ir.model.data) and a marker in
 * the description tie the record to the submission, so redelivery never creates a second one.
 */
import type { EstimatePayload, HelpdeskPayload } from '@platform/contracts';
import type { Erp } from '@platform/erp';
import { AppError } from '@platform/kernel';
import { PermanentFailure } from '@platform/outbox';

import { findAddress, findDelivered, findPartner, findTag, findUtm, linkExternalId } from './erp-lookup.js';
import { leadValues, partnerValues, referenceParagraph, ticketValues, xmlIdName } from './lead-mapping.js';
import { placeOfZip } from './postal-address.js';

export interface Delivered {
  model: 'crm.lead' | 'helpdesk.ticket';
  id: number;
  duplicate: boolean;
}

export interface DeliveryRecorder {
  markDelivered(submissionId: string, model: string, erpId: number): Promise<void>;
}

export class LeadDeliveryService {
  /**
   * Ties the new record to the submission. If another worker linked one first (a row redelivered
   * after its visibility timeout while the first delivery was still running), ours is the duplicate:
   * remove it and keep theirs.
   */
  private async link(erp: Erp, model: string, xml: string, id: number): Promise<number> {
    try {
      await linkExternalId(erp, model, xml, id);
      return id;
    } catch (e) {
      const other = await findDelivered(erp, model, xml, '', false).catch(() => undefined);
      if (other === undefined || other === id) throw e;
      await erp.unlink(model, [id]);
      return other;
    }
  }

  constructor(
    /** The ERP of the tenant being delivered for (erpDb: the database the payload names, if any). */
    private readonly erpFor: (db: string | null) => Erp | Promise<Erp>,
    private readonly recorder: DeliveryRecorder,
    private readonly structuredAttribution: boolean,
  ) {}

  async deliverEstimate(p: EstimatePayload): Promise<Delivered> {
    return this.deliver('crm.lead', p.submissionId, p.erpDb, async (erp) => {
      const address = await findAddress(erp, placeOfZip(p.contact.zip));
      const partnerId = await findPartner(erp, p.contact, partnerValues(p.contact, address));
      const tagIds: number[] = [];
      for (const t of p.tags) tagIds.push(await findTag(erp, t));
      const a = p.attribution;
      const utm = this.structuredAttribution
        ? {
            sourceId: await findUtm(erp, 'utm.source', a.utm_source),
            mediumId: await findUtm(erp, 'utm.medium', a.utm_medium),
            campaignId: await findUtm(erp, 'utm.campaign', a.utm_campaign),
          }
        : undefined;
      return erp.create(
        'crm.lead',
        leadValues(
          p,
          { partnerId, tagIds, ...(address ? { address } : {}), ...(utm ? { utm } : {}) },
          this.structuredAttribution,
        ),
      );
    });
  }

  async deliverHelpdesk(p: HelpdeskPayload): Promise<Delivered> {
    return this.deliver('helpdesk.ticket', p.submissionId, p.erpDb, async (erp) => {
      const partnerId = await findPartner(erp, p.contact, partnerValues(p.contact));
      // The tenant's own team when it has one that still exists in its ERP; else the first team.
      const own = p.helpdeskTeamId
        ? await erp.search('helpdesk.team', [['id', '=', p.helpdeskTeamId]], { limit: 1 })
        : [];
      const team = own.length ? own : await erp.search('helpdesk.team', [], { limit: 1 });
      return erp.create('helpdesk.ticket', ticketValues(p, partnerId, team[0] ?? false));
    });
  }

  private async deliver(
    model: Delivered['model'],
    submissionId: string,
    erpDb: string | null,
    create: (erp: Erp) => Promise<number>,
  ): Promise<Delivered> {
    const erp = await this.erpFor(erpDb);
    const xml = xmlIdName(submissionId);
    try {
      // Every delivery looks for an earlier, unacknowledged create (external id, then marker): an
      // attempt counter cannot tell a first delivery from a replayed dead letter or a reclaimed row.
      const earlier = await findDelivered(erp, model, xml, referenceParagraph(submissionId), true);
      if (earlier !== undefined) {
        await this.recorder.markDelivered(submissionId, model, earlier);
        return { model, id: earlier, duplicate: true };
      }
      const id = await create(erp);
      const winner = await this.link(erp, model, xml, id);
      await this.recorder.markDelivered(submissionId, model, winner);
      return { model, id: winner, duplicate: winner !== id };
    } catch (e) {
      // The ERP refused the values (unknown field, validation): retrying cannot help; dead-letter it.
      if (e instanceof AppError && e.code === 'ERP_REJECTED')
        throw new PermanentFailure(`${e.code}: ${e.message}`, { cause: e });
      throw e;
    }
  }
}
