/**
 * POST /leads and POST /helpdesk/tickets: the durable intake of @platform/intake, for the signed-in
 * office (phone calls, walk-ins, integrations). The submission and its outbox row commit together
 * before the answer; the worker delivers them to the tenant's ERP as it does the public forms'.
 * An Idempotency-Key replays the stored answer; the same body twice within the window folds into one.
 */
import { leadTags, parseFormSource } from '@platform/attribution';
import {
  type Attribution,
  type EstimatePayload,
  type HelpdeskPayload,
  TOPIC_ESTIMATE,
  TOPIC_HELPDESK,
} from '@platform/contracts';
import { type Db, withTenant } from '@platform/db';
import * as intake from '@platform/intake';
import { AppError, type Clock, newId, type WriteAnswer } from '@platform/kernel';
import { enqueue, type NewOutboxMessage } from '@platform/outbox';

import type { Principal } from '../auth/principal.js';
import { type IntakeTenant, intakeTenant } from './intake.repo.js';
import { ATTRIBUTION_KEYS, type LeadBody, type TicketBody } from './intake.schemas.js';

/** The accepted submission: outcome `created` (a replay or a folded double submit says `replayed`). */
export type IntakeAnswer = WriteAnswer<intake.AcceptedBody>;

/** The request around the body: its Idempotency-Key, client IP and the resolved host's tenant, if any. */
export interface IntakeRequest {
  key: string | undefined;
  ip: string | null;
  hostTenant: string | undefined;
}

export class ControlIntakeService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly dedupeWindowSeconds: number,
  ) {}

  submitLead(p: Principal, body: LeadBody, ctx: IntakeRequest): Promise<IntakeAnswer> {
    return this.accept(p, 'lead', body, ctx.key, ctx.ip, ctx.hostTenant, async (t, id) => {
      const formSource = parseFormSource(body.form_source ?? body.source);
      const attribution: Attribution = {};
      for (const k of ATTRIBUTION_KEYS) if (body[k]) attribution[k] = body[k];
      const payload: EstimatePayload & { source: string } = {
        submissionId: id,
        erpDb: t.erp_db,
        contact: { name: body.name, email: body.email ?? null, phone: body.phone ?? null, zip: body.zip ?? null },
        products: body.products,
        message: body.message ?? null,
        formSource,
        attribution,
        tags: leadTags({ formSource, lpSlug: body.lp_slug ?? null, siteName: t.site_name ?? t.name }),
        gpc: false,
        submittedAt: this.clock.now().toISOString(),
        source: body.source,
      };
      return {
        kind: 'estimate' as const,
        formSource,
        attribution,
        outbox: { tenantId: t.id, topic: TOPIC_ESTIMATE, aggregateId: id, payload },
      };
    });
  }

  submitTicket(p: Principal, body: TicketBody, ctx: IntakeRequest): Promise<IntakeAnswer> {
    return this.accept(p, 'helpdesk-ticket', body, ctx.key, ctx.ip, ctx.hostTenant, async (t, id) => {
      // helpdeskTeamId: the tenant's team, for the worker's per-tenant delivery (null: the ERP's first team).
      const payload: HelpdeskPayload & { source: string; helpdeskTeamId: number | null } = {
        submissionId: id,
        erpDb: t.erp_db,
        contact: { name: body.name, email: body.email, phone: body.phone ?? null },
        subject: body.subject,
        message: body.description,
        submittedAt: this.clock.now().toISOString(),
        source: body.source,
        helpdeskTeamId: t.helpdesk_team_id,
      };
      return {
        kind: 'helpdesk' as const,
        formSource: null,
        attribution: {},
        outbox: { tenantId: t.id, topic: TOPIC_HELPDESK, aggregateId: id, payload },
      };
    });
  }

  private async accept(
    p: Principal,
    route: 'lead' | 'helpdesk-ticket',
    body: LeadBody | TicketBody,
    key: string | undefined,
    ip: string | null,
    hostTenant: string | undefined,
    build: (
      t: IntakeTenant,
      id: string,
    ) => Promise<{
      kind: 'estimate' | 'helpdesk';
      formSource: unknown;
      attribution: Attribution;
      outbox: NewOutboxMessage;
    }>,
  ): Promise<IntakeAnswer> {
    // The tenant comes from the token; a body (or a resolved host) naming another tenant is answered
    // as if it did not exist.
    if (body.tenant_id !== p.tenantId || (hostTenant !== undefined && hostTenant !== p.tenantId))
      throw new AppError('NOT_FOUND', 'No such tenant.');
    const fp = intake.fingerprint(route, body);
    return intake.acceptSubmission({
      tenantId: p.tenantId,
      route: `control:${route}`,
      key,
      fingerprint: fp,
      dedupeWindowSeconds: this.dedupeWindowSeconds,
      id: newId(),
      transaction: (fn) => withTenant(this.db, p.tenantId, fn),
      insert: async (tx, id) => {
        const t = await intakeTenant(tx, p.tenantId);
        if (!t) throw new AppError('NOT_FOUND', 'No such tenant.');
        const s = await build(t, id);
        await intake.insertSubmissionRow(tx, {
          id,
          tenantId: p.tenantId,
          kind: s.kind,
          formSource: (s.formSource as { raw?: string } | null)?.raw ?? null,
          formSourceParsed: s.formSource,
          attribution: s.attribution as Record<string, string>,
          payload: { ...body, submitted_by: p.userId },
          fingerprint: fp,
          clientIp: ip,
          userAgent: null,
          gpc: false,
        });
        await enqueue(tx, s.outbox);
      },
    });
  }
}
