/**
 * Test support of sign-up: the tenants kit (a real embedded ERP over JSON-RPC) with a bot check that
 * passes the token `human`, a fresh client address per request (so the per-address limits are met
 * only where a test means to), and readers of the queued verification email.
 */
import type { CaptchaVerifier } from '@platform/providers';

import { startTenantsKit, type TenantsKit } from '../tenants/tenants.test-kit.js';

export const HUMAN = 'human';

const captcha: CaptchaVerifier = {
  verify: async ({ token, expectedAction }) =>
    token === HUMAN && expectedAction === 'signup'
      ? { ok: true, score: 0.9, action: 'signup', hostname: 'localhost' }
      : { ok: false, reason: 'invalid_token', errorCodes: ['invalid-input-response'] },
};

export interface SignupKit extends TenantsKit {
  signUp(body: Record<string, unknown>, ip?: string): Promise<Awaited<ReturnType<TenantsKit['app']['inject']>>>;
  /** The token of the newest verification link emailed to `address`. */
  verificationToken(address: string): Promise<string | undefined>;
  fields(slug: string, email?: string): Record<string, unknown>;
}

export async function startSignupKit(): Promise<SignupKit> {
  const kit = await startTenantsKit({ captcha });
  let n = 0;
  return Object.assign(kit, {
    signUp: (body: Record<string, unknown>, ip = `198.51.100.${(n++ % 250) + 1}`) =>
      kit.app.inject({ method: 'POST', url: '/signup', remoteAddress: ip, payload: body }),
    async verificationToken(address: string) {
      const r = await kit.t.db.query<{ text: string }>(
        `SELECT o.payload->>'text' AS text FROM email_messages m JOIN outbox o ON o.aggregate_id = m.id::text
          WHERE m.to_address = $1 AND m.template = 'email_verification' ORDER BY o.id DESC LIMIT 1`,
        [address],
      );
      return r.rows[0]?.text.match(/\/verify-email#token=([A-Za-z0-9_-]{43})/)?.[1];
    },
    fields: (slug: string, email = `owner@${slug}.test`) => ({
      company_name: `Blinds ${slug}`,
      slug,
      owner_name: 'Olive Owner',
      email,
      password: 'correct horse battery',
      captcha_token: HUMAN,
    }),
  });
}
