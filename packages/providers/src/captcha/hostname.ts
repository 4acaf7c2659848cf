/**
 * Hostname helpers shared by the bot-check adapters: lower-case, drop the port (including
 * bracketed IPv6 `[::1]:3000`), drop a trailing dot; match a host name against an allow-list whose
 * entries are exact names or `*.example.com` wildcards.
 */
export function normalizeHostname(raw: string): string {
  let h = raw.trim().toLowerCase();
  if (h.startsWith('[')) {
    const end = h.indexOf(']');
    h = end === -1 ? h.slice(1) : h.slice(1, end);
  } else if (h.split(':').length === 2) {
    // host:port (a bare IPv6 address has more than one colon and no port)
    h = h.slice(0, h.indexOf(':'));
  }
  if (h.endsWith('.')) h = h.slice(0, -1);
  return h;
}

const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const NAME_RE = new RegExp(`^(?:${LABEL}\\.)*${LABEL}$`);
// A wildcard names at least two labels after `*.` (`*.example.com`, `*.tenants.localhost`), never a
// top-level domain (`*.com`) or everything (`*`); `*.localhost` is the one single-label exception (loopback).
const WILDCARD_RE = new RegExp(`^\\*\\.(?:(?:${LABEL}\\.)+${LABEL}|localhost)$`);
const BRACKETED_IPV6_RE = /^\[[0-9a-f:.]+\]$/;

/**
 * True when `entry` is a valid allow-list entry: a host name (`www.example.com`, `localhost`), an
 * IP address (`127.0.0.1`, `[::1]`), or a wildcard `*.example.com` with at least two labels after the `*.`
 * (or `*.localhost`).
 */
export function isHostnameAllowListEntry(entry: string): boolean {
  const e = entry.trim().toLowerCase();
  return NAME_RE.test(e) || WILDCARD_RE.test(e) || BRACKETED_IPV6_RE.test(e);
}

/**
 * True when `hostname` matches one entry of the allow-list. Entries are exact hostnames
 * (compared case-insensitively, without port); an entry `*.example.com` admits one or more labels
 * under example.com (`www.example.com`, `a.b.example.com`) but not example.com itself.
 */
export function hostnameAllowed(hostname: string, allowList: readonly string[]): boolean {
  const h = normalizeHostname(hostname);
  if (h === '') return false;
  for (const entry of allowList) {
    const e = entry.trim().toLowerCase();
    if (e.startsWith('*.')) {
      const suffix = normalizeHostname(e.slice(2));
      if (suffix !== '' && h.length > suffix.length + 1 && h.endsWith(`.${suffix}`)) return true;
    } else if (normalizeHostname(e) === h) {
      return true;
    }
  }
  return false;
}
