/**
 * Lead-magnet sign-up. Removed by decision: unless MAGNET_SIGNUP=on it answers 410 Gone (after the
 * rate limit and validation, so callers still learn what was wrong). When on, subscribers are stored.
 */
import { parseFormSource } from '@platform/attribution';
import type { Db } from '@platform/db';
import { AppError } from '@platform/kernel';
import { type CaptchaVerifier, requireCaptchaPass } from '@platform/providers';

import { upsertSubscriber } from './magnet.repo.js';
import type { MagnetInput } from './magnet.schemas.js';

export class MagnetSignupService {
  constructor(
    private readonly db: Db,
    private readonly captcha: CaptchaVerifier,
    private readonly enabled: boolean,
  ) {}

  /** `siteHostname`: the host the form was sent to (it resolved to the tenant); a token minted there passes. */
  async signUp(
    tenantId: string,
    input: MagnetInput,
    clientIp: string | null,
    siteHostname?: string,
  ): Promise<{ id: string }> {
    if (!this.enabled) {
      throw new AppError('FEATURE_GONE', 'Lead-magnet sign-up has been retired; please use the estimate form instead.');
    }
    await requireCaptchaPass(this.captcha, {
      token: input.captcha_token,
      expectedAction: 'magnet_signup',
      ...(clientIp ? { remoteIp: clientIp } : {}),
      ...(siteHostname ? { siteHostname } : {}),
    });
    const fs = input.form_source === undefined ? null : parseFormSource(input.form_source);
    const id = await upsertSubscriber(this.db, {
      tenantId,
      email: input.email,
      magnetType: input.magnet_type,
      formSource: fs?.raw ?? null,
      formSourceParsed: fs,
      address: input.address ?? null,
    });
    return { id };
  }
}
