/**
 * The origin (scheme, host, port) a tenant's host is actually served on, for the links the control
 * plane puts in emails and answers (portal links, invitations, password resets):
 *
 * 1. `TENANT_PUBLIC_ORIGIN` when set: a template such as `https://{host}` (production behind a proxy
 *    on another machine) or `http://{host}:8000`.
 * 2. Else, when the platform's reverse proxy runs on this machine (`npm run proxy -- start`: its
 *    `PROXY_DIR` holds `nginx.pid` of a live process, and `layout.json` names its HTTPS port), the
 *    proxy's `https://{host}` (with the port when it is not 443).
 * 3. Else, when the frontend's port is known (`FRONTEND_PUBLIC_PORT`, or `npm start` telling the
 *    control plane where its frontend listens), the frontend itself: `http://{host}:<port>`.
 * 4. Else `https://{host}`: a control plane deployed on its own sits behind a proxy on 443.
 *
 * The proxy is looked at on every link (two small file reads), so starting or stopping it while the
 * platform runs changes the next link, not only the next start.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export interface PublicOriginConfig {
  TENANT_PUBLIC_ORIGIN?: string | undefined;
  FRONTEND_PUBLIC_PORT?: number | undefined;
  PROXY_DIR: string;
}

/** The running proxy's HTTPS port, or undefined when no proxy runs from this directory. */
export function runningProxyHttpsPort(proxyDir: string): number | undefined {
  try {
    const dir = resolve(proxyDir);
    const pid = Number(readFileSync(join(dir, 'nginx.pid'), 'utf8').trim());
    if (!Number.isInteger(pid) || pid <= 0) return undefined;
    process.kill(pid, 0); // throws when no such process: a stale pid file after a crash
    const layout = JSON.parse(readFileSync(join(dir, 'layout.json'), 'utf8')) as { httpsPort?: unknown };
    return typeof layout.httpsPort === 'number' ? layout.httpsPort : 443;
  } catch {
    return undefined;
  }
}

export class TenantPublicOrigins {
  private frontendPort: number | undefined;
  private landingPort: number | undefined;

  constructor(
    private readonly c: PublicOriginConfig,
    private readonly proxyHttpsPort: (dir: string) => number | undefined = runningProxyHttpsPort,
  ) {
    this.frontendPort = c.FRONTEND_PUBLIC_PORT;
  }

  /** `npm start` tells the control plane where its frontend listens (its port may be chosen at start). */
  frontendListensOn(url: string): void {
    if (this.c.FRONTEND_PUBLIC_PORT !== undefined) return;
    const port = Number(new URL(url).port);
    if (port > 0) this.frontendPort = port;
  }

  /** `npm start` tells the control plane where its landing host listens: it serves the tenants' public sites. */
  landingListensOn(url: string): void {
    const port = Number(new URL(url).port);
    if (port > 0) this.landingPort = port;
  }

  /**
   * The origin of a tenant's public website (links to "View site" and the draft preview). A proxy or
   * TENANT_PUBLIC_ORIGIN serves the site and the office on one origin; without either, `npm start`'s
   * landing serves the site on its own port (the frontend's serves the office only).
   */
  siteOrigin(host: string): string {
    if (this.c.TENANT_PUBLIC_ORIGIN || this.proxyHttpsPort(this.c.PROXY_DIR) !== undefined || !this.landingPort)
      return this.origin(host);
    return `http://${host}:${this.landingPort}`;
  }

  /** The origin of a tenant host, e.g. `http://acme.tenants.localhost:8000` or `https://blinds.acme.com`. */
  origin(host: string): string {
    if (this.c.TENANT_PUBLIC_ORIGIN) return this.c.TENANT_PUBLIC_ORIGIN.replace('{host}', host).replace(/\/+$/, '');
    const proxy = this.proxyHttpsPort(this.c.PROXY_DIR);
    if (proxy !== undefined) return `https://${host}${proxy === 443 ? '' : `:${proxy}`}`;
    if (this.frontendPort !== undefined) return `http://${host}:${this.frontendPort}`;
    return `https://${host}`;
  }
}
