/** TRUST_PROXY, read the same way by every service that serves clients (landing, frontend, control). */
import { isIPv4, isIPv6 } from 'node:net';

import { addressRanges } from './address-ranges.js';

/**
 * `true` trusts one hop, and only from a loopback or private-network peer: the reverse proxy in
 * front, whose own X-Forwarded-For entry (the last) is the client; entries before it are whatever
 * the client sent and are ignored, and a client reaching the port directly from a public address
 * cannot pose as a proxy. A list trusts exactly those proxy addresses/CIDRs (several hops when
 * proxies are chained) and takes the last entry not added by one of them.
 */
export function parseTrustProxy(v: string | undefined): false | string[] | ((address: string, hop: number) => boolean) {
  if (v === undefined || v === 'false') return false;
  if (v === 'true') return (address, hop) => hop === 0 && isPrivatePeer(address);
  return v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

const PRIVATE_PEERS = addressRanges(
  [
    ['127.0.0.0', 8],
    ['10.0.0.0', 8],
    ['172.16.0.0', 12],
    ['192.168.0.0', 16],
    ['169.254.0.0', 16],
  ],
  [
    ['::1', 128],
    ['fc00::', 7],
    ['fe80::', 10],
  ],
);

function isPrivatePeer(address: string): boolean {
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return isIPv4(v4) ? PRIVATE_PEERS.check(v4, 'ipv4') : isIPv6(address) && PRIVATE_PEERS.check(address, 'ipv6');
}
