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
import { AppError, newId } from '@platform/kernel';
import type { NewOutboxMessage } from '@platform/outbox';
import { type CaptchaVerifier, requireCaptchaPass } from '@platform/providers';

import { fingerprint } from './fingerprint.js';
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

export interface IntakeAnswer {
  status: number;
  body: { id: string; status: 'accepted' };
  replayed: boolean;
}

export interface IntakeOptions {
  dedupeWindowSeconds: number;
  /** Called after a commit, so an in-process worker can deliver at once. */
  onAccepted?: () => void;
}

const KEY_RE = /^[\x21-\x7e]{1,255}$/;

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

  private async accept(
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
    const fp = fingerprint(kind, input);
    const key = ctx.idempotencyKey;
    if (key !== undefined && !KEY_RE.test(key)) {
      throw new AppError('IDEMPOTENCY_KEY_INVALID', 'Idempotency-Key must be 1 to 255 visible ASCII characters.');
    }
    // A replay is answered before the bot check: its token was already spent on the first request.
    if (key !== undefined) {
      const stored = await repo.findAnswer(this.db, ctx.tenant.id, kind, key);
      if (stored) return replay(stored, fp);
    }
    await requireCaptchaPass(this.captcha, {
      token: input.captcha_token as string | undefined,
      expectedAction: kind,
      ...(ctx.clientIp ? { remoteIp: ctx.clientIp } : {}),
      ...(ctx.siteHostname ? { siteHostname: ctx.siteHostname } : {}),
    });

    const outcome = await this.db
      .transaction(async (tx) => {
        await repo.lockFingerprint(tx, ctx.tenant.id, fp);
        const earlier = await repo.findRecentSubmission(tx, ctx.tenant.id, fp, this.opts.dedupeWindowSeconds);
        const id = earlier ?? s.id;
        if (!earlier) {
          const { captcha_token: _t, ...payload } = input;
          await repo.insertSubmission(
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
          );
        }
        const answer = { fingerprint: fp, status_code: 201, response: { id, status: 'accepted' } };
        if (key !== undefined && !(await repo.storeAnswer(tx, ctx.tenant.id, kind, key, answer))) {
          // Another request with this key committed first: roll ours back and answer as it did.
          throw new KeyTaken();
        }
        return { id, created: !earlier };
      })
      .catch(async (e: unknown) => {
        if (!(e instanceof KeyTaken) || key === undefined) throw e;
        const stored = await repo.findAnswer(this.db, ctx.tenant.id, kind, key);
        if (!stored)
          throw new AppError(
            'IDEMPOTENCY_REQUEST_IN_PROGRESS',
            'A request with this Idempotency-Key is still in progress.',
          );
        return replay(stored, fp);
      });
    if ('replayed' in outcome) return outcome;
    if (outcome.created) this.opts.onAccepted?.();
    return { status: 201, body: { id: outcome.id, status: 'accepted' }, replayed: !outcome.created };
  }
}

class KeyTaken extends Error {}

function replay(stored: repo.StoredAnswer, fp: string): IntakeAnswer {
  if (stored.fingerprint !== fp) {
    throw new AppError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used with a different request body.');
  }
  return { status: stored.status_code, body: stored.response as IntakeAnswer['body'], replayed: true };
}
