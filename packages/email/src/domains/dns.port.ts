/**
 * DNS lookups for sending-domain verification, behind a port so the resolver's servers are
 * configurable (EMAIL_DNS_SERVERS; tests point it at a DNS server on loopback). A name that does
 * not exist reads as no records, not as an error.
 */
import { Resolver } from 'node:dns/promises';

export interface DnsLookup {
  /** TXT records, each record's strings joined (long DKIM keys are split into 255-byte strings). */
  txt(name: string): Promise<string[]>;
  cname(name: string): Promise<string[]>;
}

const NO_DATA = new Set(['ENOTFOUND', 'ENODATA', 'ENONAME', 'NXDOMAIN']);

export function createDnsLookup(servers?: string[]): DnsLookup {
  const r = new Resolver({ timeout: 3_000, tries: 2 });
  if (servers?.length) r.setServers(servers);
  const none = (e: unknown): string[] => {
    if (NO_DATA.has((e as { code?: string }).code ?? '')) return [];
    throw e;
  };
  return {
    txt: (name) => r.resolveTxt(name).then((recs) => recs.map((parts) => parts.join('')), none),
    cname: (name) => r.resolveCname(name).catch(none),
  };
}
