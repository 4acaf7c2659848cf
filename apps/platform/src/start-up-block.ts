/**
 * The one plain-text block `npm start` prints when everything listens: what a newcomer needs on one
 * screen (each service's URL, where the passwords are, the local stand-ins' console and mailbox, the
 * local bot check), after the JSON log lines, so it is the last thing on the console.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface StartUpFacts {
  landingUrl: string;
  frontendUrl: string;
  controlUrl: string;
  /** The embedded ERP's URL, or ERP_URL's. */
  erpUrl: string;
  embeddedErp: boolean;
  docsUrl?: string | undefined;
  workerMetricsUrl?: string | undefined;
  localConsole?: { url: string; mail: boolean } | undefined;
  dataDir: string;
  tenantsHost: string;
  /** No CAPTCHA_SECRET_KEY: the landing host's local siteverify stand-in is in use. */
  localCaptcha: boolean;
  /** Passwords set by the operator (ERP_ADMIN_PASSWORD, DOCS_PASSWORD) are never printed. */
  erpAdminPasswordFromEnv: boolean;
  docsPasswordFromEnv: boolean;
  /** Secret files that did not exist before this start: their value is shown this once. */
  createdThisStart: ReadonlySet<string>;
  requestsAtDebug: boolean;
}

export const ERP_ADMIN_PASSWORD_FILE = 'erp-admin-password';
export const DOCS_PASSWORD_FILE = 'docs-password';

const port = (url: string): string => new URL(url).port;

function secretLine(f: StartUpFacts, file: string, fromEnv: string | undefined): string {
  if (fromEnv) return `as set in ${fromEnv}`;
  const path = join(f.dataDir, file);
  if (f.createdThisStart.has(file) && existsSync(path))
    return `${readFileSync(path, 'utf8').trim()} (first start: shown once; kept in ${path})`;
  return `in ${path}`;
}

export function startUpBlock(f: StartUpFacts): string {
  const row = (label: string, value: string) => `  ${label.padEnd(20)}${value}`;
  const tenant = (url: string, path = '/') => `http://<slug>.${f.tenantsHost}:${port(url)}${path}`;
  const lines = [
    '',
    '─'.repeat(78),
    `Platform ready. Data in ${f.dataDir}`,
    '',
    row('Website', `${f.landingUrl}/   (a tenant's site: ${tenant(f.landingUrl)})`),
    row('Office, field app', `${tenant(f.frontendUrl, '/office/leads')}   ${tenant(f.frontendUrl, '/field/jobs')}`),
    row('Sign up a company', `${f.frontendUrl}/signup`),
    row('Control plane API', `${f.controlUrl}/   (docs/control-plane.md)`),
    row(f.embeddedErp ? 'ERP (embedded)' : 'ERP', `${f.erpUrl}/`),
  ];
  if (f.embeddedErp)
    lines.push(
      row(
        '  admin sign-in',
        `login admin, password ${secretLine(f, ERP_ADMIN_PASSWORD_FILE, f.erpAdminPasswordFromEnv ? 'ERP_ADMIN_PASSWORD' : undefined)}`,
      ),
    );
  if (f.docsUrl) {
    lines.push(row('Docs', `${f.docsUrl}/`));
    lines.push(
      row(
        '  sign-in',
        `user docs, password ${secretLine(f, DOCS_PASSWORD_FILE, f.docsPasswordFromEnv ? 'DOCS_PASSWORD' : undefined)}`,
      ),
    );
  }
  if (f.workerMetricsUrl) lines.push(row('Worker metrics', f.workerMetricsUrl));
  if (f.localConsole) {
    lines.push(
      '',
      'LOCAL stand-ins for SMS, accounting, team chat and email (embedded mode; nothing leaves this machine):',
      row('Console', `${f.localConsole.url}/   (SMS and chat received; a customer's phone: /sms)`),
    );
    if (f.localConsole.mail) lines.push(row('Mail', `${f.localConsole.url}/mail   (every email the platform sends)`));
  }
  if (f.localCaptcha)
    lines.push(
      '',
      `Bot check: the LOCAL stand-in (no CAPTCHA_SECRET_KEY): forms on localhost and *.${f.tenantsHost} pass.`,
      'It is not a bot check; set CAPTCHA_SECRET_KEY and CAPTCHA_SITE_KEY in production.',
    );
  lines.push(
    '',
    f.requestsAtDebug
      ? 'Requests are logged at debug (LOG_LEVEL=debug shows them). Ctrl-C stops everything.'
      : 'Ctrl-C stops everything.',
    '─'.repeat(78),
    '',
  );
  return lines.join('\n');
}
