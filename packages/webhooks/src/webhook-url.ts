/**
 * Where a tenant's webhooks may go. A tenant names the URL, and the platform's own network must not be
 * reachable through it: https only, and never to a loopback, private, link-local, shared or reserved
 * address, whether written as an IP or resolved from the name at delivery time. `allowLoopback`
 * (embedded and development setups) also admits http and https to the loopback addresses, for a
 * receiver on the same machine.
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

import { addressRanges } from '@platform/http-kit';

const loopback = addressRanges([['127.0.0.0', 8]], [['::1', 128]]);

const internal = addressRanges(
  [
    ['0.0.0.0', 8],
    ['10.0.0.0', 8],
    ['100.64.0.0', 10],
    ['127.0.0.0', 8],
    ['169.254.0.0', 16],
    ['172.16.0.0', 12],
    ['192.0.0.0', 24],
    ['192.168.0.0', 16],
    ['198.18.0.0', 15],
    ['224.0.0.0', 3],
  ],
  [
    ['::', 128],
    ['::1', 128],
    ['fc00::', 7],
    ['fe80::', 10],
    ['ff00::', 8],
    ['64:ff9b::', 96],
  ],
);

/** Whether a webhook may be sent to this IP address. */
export function addressAllowed(ip: string, allowLoopback: boolean): boolean {
  const bare = ip.replace(/^\[|\]$/g, '');
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(bare);
  const address = mapped ? mapped[1]! : bare;
  const family = isIP(address);
  if (!family) return false;
  const type = family === 6 ? 'ipv6' : 'ipv4';
  if (allowLoopback && loopback.check(address, type)) return true;
  return !internal.check(address, type);
}

const isLoopbackName = (host: string) => host === 'localhost' || host.endsWith('.localhost');

/** The URL's own form: https (http only to loopback when allowed), no credentials, no internal IP. */
export function webhookUrlAllowed(raw: string, allowLoopback: boolean): boolean {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return false;
  }
  if (u.username || u.password) return false;
  const host = u.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const local = isLoopbackName(host) || (isIP(host) > 0 && loopback.check(host, isIP(host) === 6 ? 'ipv6' : 'ipv4'));
  if (local) return allowLoopback && (u.protocol === 'https:' || u.protocol === 'http:');
  if (u.protocol !== 'https:') return false;
  return isIP(host) ? addressAllowed(host, false) : host.includes('.');
}

/**
 * At delivery: the reason the URL may not be called now (its form, or an address its name resolves
 * to), or null. Checked on every attempt, as a name's addresses can change after the endpoint was saved.
 */
export async function deliveryRefusal(
  raw: string,
  allowLoopback: boolean,
  resolve: (host: string) => Promise<string[]> = async (h) => (await lookup(h, { all: true })).map((a) => a.address),
): Promise<string | null> {
  if (!webhookUrlAllowed(raw, allowLoopback)) return 'the URL is not allowed';
  const host = new URL(raw).hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return null;
  let addresses: string[];
  try {
    addresses = await resolve(host);
  } catch (e) {
    return `the name did not resolve (${(e as { code?: string }).code ?? 'error'})`;
  }
  const bad = addresses.find((a) => !addressAllowed(a, allowLoopback));
  return bad ? `the name resolves to an address webhooks may not reach (${bad})` : null;
}
