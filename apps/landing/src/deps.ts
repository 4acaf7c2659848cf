/**
 * Composition root of the landing host: the database, tenant resolution, the bot-check verifier
 * (reCAPTCHA siteverify, or the local stand-in when no secret is configured) and the services.
 */
import type { Db } from '@platform/db';
import { createMetricsRegistry, type MetricsOptions, RateLimiter } from '@platform/http-kit';
import { randomToken } from '@platform/kernel';
import { type CaptchaVerifier, createSiteverifyVerifier, GOOGLE_SITEVERIFY_URL } from '@platform/providers';
import { createEmbeddedBotCheck, type EmbeddedBotCheck } from '@platform/providers/local';
import { type SecretBox, secretBoxFromConfig } from '@platform/secrets';
import type { ObjectStore } from '@platform/storage';
import { TenantHostResolver } from '@platform/tenancy';
import { openWebsitePreview, type WebsiteSnapshotSource } from '@platform/website';

import { type LandingConfig, loadLandingObjectStore } from './config.js';
import { CapiBridgeService } from './features/conversions/capi-bridge.service.js';
import { SubmissionIntakeService } from './features/intake/submission-intake.service.js';
import { MagnetSignupService } from './features/magnet/magnet-signup.service.js';
import type { PreviewOpener } from './site/tenant-preview.routes.js';

export interface LandingDeps {
  db: Db;
  siteName: string;
  /** Public origin of the website (SITE_URL), for canonical and Open Graph URLs. */
  siteUrl?: string;
  /** Host → tenant (start() it to hear changes; server.ts does). */
  tenants: TenantHostResolver;
  intake: SubmissionIntakeService;
  magnet: MagnetSignupService;
  capi: CapiBridgeService;
  limiter: RateLimiter;
  captchaScript: { scriptUrl: string; siteKey: string };
  /** Set in embedded mode: the local siteverify stand-in to mount, verified in process. */
  localCaptcha: EmbeddedBotCheck | null;
  /** /metrics (requests, process); METRICS_TOKEN or loopback only. */
  metrics: MetricsOptions;
  /** Tenants' site snapshots; absent, a tenant's site is its name and the default copy (docs/website.md). */
  websites?: WebsiteSnapshotSource;
  /** Draft previews (/_preview): a token the control plane minted with the shared keyring → the draft. */
  preview: PreviewOpener;
  /** The tenants' object store: gallery images served at /media (features/media). */
  objects: ObjectStore;
  /** TENANTS_HOST: a tenant's `<slug>.<TENANTS_HOST>` is its primary host when no snapshot names one. */
  tenantsHost: string;
}

const LOCAL_HOSTNAMES = ['localhost', '127.0.0.1', '[::1]'];

/**
 * The landing host's own names, which serve the default tenant (the single-company site): loopback,
 * its public domain (LANDING_DOMAIN, as the proxy names it), SITE_URL's host, the bot check's allowed
 * host names, and any LANDING_HOSTS. Every other host must be a tenant's.
 */
export function landingHosts(config: LandingConfig): string[] {
  return [
    ...LOCAL_HOSTNAMES,
    config.LANDING_DOMAIN,
    ...(config.SITE_URL ? [new URL(config.SITE_URL).hostname] : []),
    // Exact names only: a wildcard entry is a pattern for the bot check, not a host of the default site.
    ...(config.CAPTCHA_ALLOWED_HOSTNAMES ?? []).filter((h) => !h.startsWith('*.')),
    ...(config.LANDING_HOSTS ?? []),
  ];
}

/** The keyring is opened on the first preview: a landing nobody previews on never touches it. */
function previewOpener(config: LandingConfig, db: Db): PreviewOpener {
  let box: SecretBox | undefined;
  return (tenantId, token) => {
    box ??= secretBoxFromConfig(config);
    return openWebsitePreview(db, box, tenantId, token, config.TENANTS_HOST);
  };
}

export function composeLanding(
  config: LandingConfig,
  db: Db,
  onAccepted?: () => void,
  extra: { websites?: WebsiteSnapshotSource; objects?: ObjectStore } = {},
): LandingDeps {
  const allowed = config.CAPTCHA_ALLOWED_HOSTNAMES;
  let verifier: CaptchaVerifier;
  let localCaptcha: LandingDeps['localCaptcha'] = null;
  let captchaScript: LandingDeps['captchaScript'];
  if (config.CAPTCHA_SECRET_KEY) {
    verifier = createSiteverifyVerifier({
      verifyUrl: config.CAPTCHA_VERIFY_URL ?? GOOGLE_SITEVERIFY_URL,
      secret: config.CAPTCHA_SECRET_KEY,
      minScore: config.CAPTCHA_MIN_SCORE,
      timeoutMs: config.CAPTCHA_TIMEOUT_MS,
      allowedHostnames: allowed ?? [],
    });
    const siteKey = config.CAPTCHA_SITE_KEY ?? '';
    captchaScript = {
      scriptUrl: `https://www.google.com/recaptcha/api.js?render=${encodeURIComponent(siteKey)}`,
      siteKey,
    };
  } else {
    localCaptcha = createEmbeddedBotCheck({
      secret: randomToken(24),
      minScore: config.CAPTCHA_MIN_SCORE,
      timeoutMs: config.CAPTCHA_TIMEOUT_MS,
      maxTokens: config.LOCAL_CAPTCHA_MAX_TOKENS,
      // Embedded mode serves every tenant on <slug>.TENANTS_HOST; custom domains pass as the request's own host.
      allowedHostnames: allowed ?? [...LOCAL_HOSTNAMES, `*.${config.TENANTS_HOST}`],
    });
    verifier = localCaptcha.verifier;
    captchaScript = { scriptUrl: '/local-captcha/api.js', siteKey: localCaptcha.siteKey };
  }
  const capiConfigured = Boolean(config.META_PIXEL_ID && config.META_ACCESS_TOKEN);
  return {
    db,
    siteName: config.SITE_NAME,
    ...(config.SITE_URL ? { siteUrl: config.SITE_URL } : {}),
    tenants: new TenantHostResolver(db, {
      tenantsHost: config.TENANTS_HOST,
      defaultHosts: landingHosts(config),
      defaultSiteName: config.SITE_NAME,
    }),
    intake: new SubmissionIntakeService(db, verifier, {
      dedupeWindowSeconds: config.DEDUPE_WINDOW_SECONDS,
      ...(onAccepted ? { onAccepted } : {}),
    }),
    magnet: new MagnetSignupService(db, verifier, config.MAGNET_SIGNUP === 'on'),
    capi: new CapiBridgeService(db, capiConfigured, onAccepted),
    limiter: new RateLimiter(db),
    captchaScript,
    localCaptcha,
    metrics: { registry: createMetricsRegistry('landing'), service: 'landing', token: config.METRICS_TOKEN },
    ...(extra.websites ? { websites: extra.websites } : {}),
    objects: extra.objects ?? loadLandingObjectStore(config.DATA_DIR),
    preview: previewOpener(config, db),
    tenantsHost: config.TENANTS_HOST,
  };
}
