/**
 * CNAME look-ups for custom-domain verification through a resolver whose servers are configuration
 * (DNS_SERVERS; tests point it at a DNS server on loopback). Three answers, kept apart on purpose:
 * the CNAME targets; `none` (the DNS answered: the name does not exist or has no CNAME); `unknown`
 * (it did not answer: timeout, SERVFAIL, refused), which must never count against the tenant.
 */
import { Resolver } from 'node:dns/promises';

export type CnameAnswer =
  { kind: 'found'; targets: string[] } | { kind: 'none'; detail: string } | { kind: 'unknown'; detail: string };

export interface CnameLookup {
  cname(name: string): Promise<CnameAnswer>;
}

/** The DNS said so: no such name (NXDOMAIN) or no CNAME at it (NODATA). */
const DEFINITE: Record<string, string> = {
  ENOTFOUND: 'the name does not exist (NXDOMAIN)',
  ENODATA: 'the name has no CNAME record',
  ENONAME: 'the name does not exist',
};

export function createCnameLookup(opts: { servers?: string[]; timeoutMs?: number; tries?: number } = {}): CnameLookup {
  const resolver = new Resolver({ timeout: opts.timeoutMs ?? 3_000, tries: opts.tries ?? 2 });
  if (opts.servers?.length) resolver.setServers(opts.servers);
  return {
    async cname(name) {
      try {
        const targets = await resolver.resolveCname(name);
        return targets.length
          ? { kind: 'found', targets: targets.map((t) => t.toLowerCase().replace(/\.$/, '')) }
          : { kind: 'none', detail: DEFINITE.ENODATA! };
      } catch (e) {
        const code = (e as { code?: string }).code ?? 'ERROR';
        const definite = DEFINITE[code];
        if (definite) return { kind: 'none', detail: definite };
        return { kind: 'unknown', detail: `DNS did not answer (${code})` };
      }
    },
  };
}
