/**
 * CertificateInstaller for nginx: writes the active tenant certificates and tenant-sites.conf into the
 * proxy directory, checks the result with `nginx -t` (rolling back the file on refusal) and reloads
 * gracefully when nginx runs.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { CertificateInstaller, InstalledCertificate } from '@platform/certificates';

import { nginxReload, nginxTest } from './nginx-process.js';
import { readLayout, writeTenantSites } from './proxy-dir.js';

export class NginxCertificateInstaller implements CertificateInstaller {
  constructor(private readonly opts: { prefix: string; bin?: string }) {}

  async install(active: InstalledCertificate[]): Promise<void> {
    const layout = readLayout(this.opts.prefix);
    const paths = { bin: this.opts.bin ?? 'nginx', prefix: layout.prefix };
    const previous = writeTenantSites(layout, active);
    try {
      if (existsSync(join(layout.prefix, 'nginx.pid'))) await nginxReload(paths);
      else await nginxTest(paths);
    } catch (e) {
      writeFileSync(join(layout.prefix, 'tenant-sites.conf'), previous);
      throw e;
    }
  }
}
