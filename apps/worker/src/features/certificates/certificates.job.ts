/**
 * The worker's certificate job: every CERTIFICATES_POLL_MS it runs one issuance/renewal pass for the
 * proved tenant domains (docs/certificates.md). Off unless ACME_DIRECTORY_URL is set. With PROXY_DIR
 * the active certificates are written for the nginx of `npm run proxy` and nginx is reloaded.
 */
import { readFileSync } from 'node:fs';

import {
  AcmeIssuer,
  type CertificateCandidates,
  type CertificateEvents,
  type CertificatePolicy,
  CertificateRepo,
  CertificateService,
  ChallengeRepo,
  defaultCertificatePolicy,
  noCertificateEvents,
  TableCertificateCandidates,
} from '@platform/certificates';
import type { Db } from '@platform/db';
import { Periodic } from '@platform/kernel';
import { NginxCertificateInstaller } from '@platform/proxy';
import type { SecretBox } from '@platform/secrets';

import type { WorkerConfig } from '../../config.js';

type Logger = {
  info(o: object, msg: string): void;
  warn(o: object, msg: string): void;
  error(o: object, msg: string): void;
};

export interface CertificateJob {
  service: CertificateService;
  runOnce(now?: Date): ReturnType<CertificateService['runOnce']>;
  start(): void;
  stop(): Promise<void>;
}

/**
 * The control plane's hookup: pass `candidates` (from tenant_domains whose CNAME was seen) and `events`
 * (setting ssl_status); without them the certificate_candidates table is the source and nothing is told.
 */
export function createCertificateJob(
  config: WorkerConfig,
  db: Db,
  box: SecretBox,
  logger: Logger,
  hooks: { candidates?: CertificateCandidates; events?: CertificateEvents; policy?: Partial<CertificatePolicy> } = {},
): CertificateJob | undefined {
  if (!config.ACME_DIRECTORY_URL) return undefined;
  const issuer = new AcmeIssuer(
    {
      directoryUrl: config.ACME_DIRECTORY_URL,
      ...(config.ACME_EMAIL ? { email: config.ACME_EMAIL } : {}),
      ...(config.ACME_CA_FILE ? { directoryCaPem: readFileSync(config.ACME_CA_FILE, 'utf8') } : {}),
    },
    new CertificateRepo(db),
    new ChallengeRepo(db),
    box,
  );
  const service = new CertificateService(
    db,
    box,
    {
      candidates: hooks.candidates ?? new TableCertificateCandidates(db),
      issuer,
      events: hooks.events ?? noCertificateEvents,
      ...(config.PROXY_DIR
        ? { installer: new NginxCertificateInstaller({ prefix: config.PROXY_DIR, bin: config.NGINX_BIN }) }
        : {}),
    },
    { ...defaultCertificatePolicy, ...hooks.policy },
  );
  const periodic = new Periodic({
    everyMs: config.CERTIFICATES_POLL_MS,
    firstAfterMs: 0,
    pass: async () => {
      const r = await service.runOnce();
      if (r.issued.length + r.retrying.length + r.failed.length > 0) logger.info(r, 'certificates: pass done');
    },
    onError: (err) => logger.error({ err }, 'certificates: pass failed'),
  });
  return {
    service,
    runOnce: (now) => service.runOnce(now),
    start() {
      // The first pass also puts the stored certificates back in place (restarted worker, new proxy directory).
      periodic.start();
    },
    stop: () => periodic.stop(),
  };
}
