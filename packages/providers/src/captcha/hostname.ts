/**
 * Hostname helpers shared by the bot-check adapters: lower-case, drop the port (including
 * bracketed IPv6 `[::1]:3000`), drop a trailing dot.
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

/**
 * True when `hostname` matches one entry of the allow-list. Entries are exact hostnames
 * (compared case-insensitively, without port); an entry `*.example.com` also admits any
 * subdomain of example.com (but not example.com itself).
 */
export function hostnameAllowed(hostname: string, allowList: readonly string[]): boolean {
  const h = normalizeHostname(hostname);
  if (h === '') return false;
  for (const entry of allowList) {
    const e = entry.trim().toLowerCase();
    if (e.startsWith('*.')) {
      const suffix = normalizeHostname(e.slice(2));
      if (suffix !== '' && h.endsWith(`.${suffix}`)) return true;
    } else if (normalizeHostname(e) === h) {
      return true;
    }
  }
  return false;
}
