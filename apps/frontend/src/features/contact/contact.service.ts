/**
 * A contact-page message becomes a helpdesk ticket of the host's tenant: the bot check first (as
 * the landing host does it: a reCAPTCHA v3 token in the body, action `contact`), then the control
 * plane's POST /helpdesk/tickets with the caller's Idempotency-Key, so a resend files one ticket.
 */
import { AppError } from '@platform/kernel';
import { type CaptchaVerifier, requireCaptchaPass } from '@platform/providers';

import type { HostTenant } from '../tenancy/host-tenant.resolver.js';

export interface ContactInput {
  name: string;
  email: string;
  subject: string;
  description: string;
  captcha_token?: string | undefined;
}

export interface ContactContext {
  tenant: HostTenant;
  idempotencyKey?: string | undefined;
  clientIp?: string | undefined;
  /** The host the page was served on (it resolved to the tenant): a token minted there passes, custom domains included. */
  siteHostname?: string | undefined;
}

export class ContactService {
  constructor(
    private readonly captcha: CaptchaVerifier,
    private readonly controlUrl: string,
  ) {}

  async submit(ctx: ContactContext, input: ContactInput): Promise<{ status: number; body: unknown }> {
    await requireCaptchaPass(this.captcha, {
      token: input.captcha_token,
      expectedAction: 'contact',
      ...(ctx.clientIp ? { remoteIp: ctx.clientIp } : {}),
      ...(ctx.siteHostname ? { siteHostname: ctx.siteHostname } : {}),
    });
    const { captcha_token: _t, ...ticket } = input;
    let r: Response;
    try {
      r = await fetch(`${this.controlUrl.replace(/\/+$/, '')}/helpdesk/tickets`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-tenant-id': ctx.tenant.id,
          'x-tenant-slug': ctx.tenant.slug,
          ...(ctx.idempotencyKey ? { 'idempotency-key': ctx.idempotencyKey } : {}),
          ...(ctx.clientIp ? { 'x-forwarded-for': ctx.clientIp } : {}),
        },
        body: JSON.stringify({ tenant_id: ctx.tenant.id, source: 'contact', ...ticket }),
        signal: AbortSignal.timeout(15_000),
      });
    } catch (e) {
      throw new AppError('CONTROL_UNAVAILABLE', 'Your message could not be sent just now; please try again.', {
        cause: e,
      });
    }
    const text = await r.text();
    return { status: r.status, body: text ? (JSON.parse(text) as unknown) : {} };
  }
}
