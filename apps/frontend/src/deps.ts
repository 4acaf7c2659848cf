/**
 * Composition root of the frontend: the only place that constructs its parts (host → tenant,
 * branding, bundles, the contact page's bot check). Nothing here listens: frontend.server.ts does.
 */
import type { Db } from '@platform/db';
import { randomToken } from '@platform/kernel';
import { type CaptchaVerifier, createSiteverifyVerifier, GOOGLE_SITEVERIFY_URL } from '@platform/providers';
import { createEmbeddedBotCheck, type EmbeddedBotCheck } from '@platform/providers/local';
import { TenantHostResolver } from '@platform/tenancy';

import { buildBundles, type Bundles } from './assets/assets.js';
import { ContactService } from './features/contact/contact.service.js';
import { BrandingService } from './features/tenancy/branding.service.js';
import { type HostTenants, sharedHostTenants } from './features/tenancy/host-tenant.resolver.js';
import type { FrontendConfig } from './frontend.config.js';

export interface FrontendDeps {
  config: FrontendConfig;
  tenants: HostTenants & { start?(): Promise<void>; stop?(): Promise<void> };
  branding: BrandingService;
  bundles: Bundles;
  contact: ContactService;
  /** The bot-check script the contact page loads on first use. */
  captchaScript: { scriptUrl: string; siteKey: string };
  /** Embedded mode: the local siteverify stand-in to mount, verified in process. */
  localCaptcha: EmbeddedBotCheck | null;
}

const list = (v: string | undefined) =>
  (v ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);

export async function composeFrontend(config: FrontendConfig, db: Db): Promise<FrontendDeps> {
  const common = { minScore: config.CAPTCHA_MIN_SCORE, timeoutMs: 3_000 };
  let verifier: CaptchaVerifier;
  let localCaptcha: FrontendDeps['localCaptcha'] = null;
  let captchaScript: FrontendDeps['captchaScript'];
  if (config.CAPTCHA_SECRET_KEY) {
    verifier = createSiteverifyVerifier({
      ...common,
      verifyUrl: config.CAPTCHA_VERIFY_URL ?? GOOGLE_SITEVERIFY_URL,
      secret: config.CAPTCHA_SECRET_KEY,
      allowedHostnames: list(config.CAPTCHA_ALLOWED_HOSTNAMES),
    });
    const siteKey = config.CAPTCHA_SITE_KEY ?? '';
    captchaScript = { scriptUrl: 'https://www.google.com/recaptcha/api.js', siteKey };
  } else {
    const allowed = list(config.CAPTCHA_ALLOWED_HOSTNAMES);
    localCaptcha = createEmbeddedBotCheck({
      ...common,
      secret: randomToken(24),
      // Embedded mode serves tenants on *.localhost too.
      allowedHostnames: allowed.length ? allowed : ['localhost', '127.0.0.1', '[::1]', `*.${config.TENANTS_HOST}`],
    });
    verifier = localCaptcha.verifier;
    captchaScript = { scriptUrl: '/local-captcha/api.js', siteKey: localCaptcha.siteKey };
  }
  const defaultHosts = list(config.DEFAULT_TENANT_HOSTS);
  return {
    config,
    tenants: sharedHostTenants(new TenantHostResolver(db, { tenantsHost: config.TENANTS_HOST, defaultHosts })),
    branding: new BrandingService(db),
    bundles: await buildBundles(),
    contact: new ContactService(verifier, config.CONTROL_URL),
    captchaScript,
    localCaptcha,
  };
}
