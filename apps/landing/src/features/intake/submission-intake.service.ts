/**
 * Decisions of public form intake: idempotent replays, the bot check, double-submit folding, and
 * committing the submission with its outbox row in one transaction before the visitor is answered.
 */
import { leadTags, parseFormSource } from '@platform/attribution';
import {
  type Attribution,
  ATTRIBUTION_FIELDS,
  type EstimatePayload,
  type HelpdeskPayload,
  TOPIC_ESTIMATE,
  TOPIC_HELPDESK,
} from '@platform/contracts';
import type { Db } from '@platform/db';
import { type AcceptedBody, acceptSubmission, fingerprint } from '@platform/intake';
import { newId, type WriteAnswer } from '@platform/kernel';
import type { NewOutboxMessage } from '@platform/outbox';
import { type CaptchaVerifier, requireCaptchaPass } from '@platform/providers';

import type { EstimateInput, HelpdeskInput } from './intake.schemas.js';
import * as repo from './submission.repo.js';

export interface IntakeContext {
  /** The tenant of the site the form was sent from (resolved by host). */
  tenant: { id: string; erpDb: string | null; siteName: string; helpdeskTeamId: number | null };
  clientIp: string | null;
  /** The host the form was sent to (it resolved to the tenant): a token minted there passes the bot check. */
  siteHostname?: string;
  userAgent: string | null;
  /** The visitor sent `Sec-GPC: 1`. */
  gpc: boolean;
  idempotencyKey: string | undefined;
}

/** The accepted submission: outcome `created` (a replay or a folded double submit says `replayed`). */
export type IntakeAnswer = WriteAnswer<AcceptedBody>;

export interface IntakeOptions {
  dedupeWindowSeconds: number;
  /** Called after a commit, so an in-process worker can deliver at once. */
  onAccepted?: () => void;
}

export class SubmissionIntakeService {
  constructor(
    private readonly db: Db,
    private readonly captcha: CaptchaVerifier,
    private readonly opts: IntakeOptions,
  ) {}

  submitEstimate(ctx: IntakeContext, input: EstimateInput): Promise<IntakeAnswer> {
    const id = newId();
    const formSource = parseFormSource(input.form_source);
    const attribution: Attribution = {};
    for (const k of ATTRIBUTION_FIELDS) if (input[k]) attribution[k] = input[k];
    const payload: EstimatePayload = {
      submissionId: id,
      erpDb: ctx.tenant.erpDb,
      tenantId: ctx.tenant.id,
      siteName: ctx.tenant.siteName,
      contact: { name: input.name, email: input.email ?? null, phone: input.phone ?? null, zip: input.zip ?? null },
      products: input.products,
      message: input.message ?? null,
      formSource,
      attribution,
      tags: leadTags({ formSource, lpSlug: input.lp_slug ?? null, siteName: ctx.tenant.siteName }),
      gpc: ctx.gpc,
      submittedAt: new Date().toISOString(),
    };
    return this.accept(ctx, 'estimate', input, {
      id,
      formSource: formSource.raw,
      formSourceParsed: formSource,
      attribution,
      outbox: { tenantId: ctx.tenant.id, topic: TOPIC_ESTIMATE, aggregateId: id, payload: { ...payload } },
    });
  }

  submitHelpdesk(ctx: IntakeContext, input: HelpdeskInput): Promise<IntakeAnswer> {
    const id = newId();
    const payload: HelpdeskPayload = {
      submissionId: id,
      erpDb: ctx.tenant.erpDb,
      tenantId: ctx.tenant.id,
      siteName: ctx.tenant.siteName,
      contact: { name: input.name, email: input.email, phone: input.phone ?? null },
      subject: input.subject,
      message: input.message,
      helpdeskTeamId: ctx.tenant.helpdeskTeamId,
      submittedAt: new Date().toISOString(),
    };
    return this.accept(ctx, 'helpdesk', input, {
      id,
      formSource: null,
      formSourceParsed: null,
      attribution: {},
      outbox: { tenantId: ctx.tenant.id, topic: TOPIC_HELPDESK, aggregateId: id, payload: { ...payload } },
    });
  }

  private accept(
    ctx: IntakeContext,
    kind: 'estimate' | 'helpdesk',
    input: Record<string, unknown>,
    s: {
      id: string;
      formSource: string | null;
      formSourceParsed: unknown;
      attribution: Attribution;
      outbox: NewOutboxMessage;
    },
  ): Promise<IntakeAnswer> {
    // The bot-check token is spent on the first request: it is no part of what the request is.
    const { captcha_token: token, ...payload } = input;
    const fp = fingerprint(kind, payload);
    return acceptSubmission({
      tenantId: ctx.tenant.id,
      route: kind,
      key: ctx.idempotencyKey,
      fingerprint: fp,
      dedupeWindowSeconds: this.opts.dedupeWindowSeconds,
      id: s.id,
      transaction: (fn) => this.db.transaction(fn),
      beforeWrite: () =>
        requireCaptchaPass(this.captcha, {
          token: token as string | undefined,
          expectedAction: kind,
          ...(ctx.clientIp ? { remoteIp: ctx.clientIp } : {}),
          ...(ctx.siteHostname ? { siteHostname: ctx.siteHostname } : {}),
        }),
      insert: (tx, id) =>
        repo.insertSubmission(
          tx,
          {
            id,
            tenantId: ctx.tenant.id,
            kind,
            formSource: s.formSource,
            formSourceParsed: s.formSourceParsed,
            attribution: s.attribution,
            payload,
            fingerprint: fp,
            clientIp: ctx.clientIp,
            userAgent: ctx.userAgent,
            gpc: ctx.gpc,
          },
          s.outbox,
        ),
      ...(this.opts.onAccepted ? { onCreated: this.opts.onAccepted } : {}),
    });
  }
}
