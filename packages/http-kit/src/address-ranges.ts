/** A node:net BlockList of IPv4 and IPv6 ranges, written as [network, prefix length] pairs. */
import { BlockList } from 'node:net';

type Ranges = readonly (readonly [string, number])[];

export function addressRanges(v4: Ranges, v6: Ranges): BlockList {
  const list = new BlockList();
  for (const [net, bits] of v4) list.addSubnet(net, bits, 'ipv4');
  for (const [net, bits] of v6) list.addSubnet(net, bits, 'ipv6');
  return list;
}
