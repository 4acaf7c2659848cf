/**
 * Host names as the platform stores and compares them: lower case, no port, no trailing dot, and
 * internationalised names in their ASCII (IDNA, `xn--`) form, so `Bücher.Example.` and
 * `xn--bcher-kva.example` are one name. Resolution (a Host header) and the domains API (a name a
 * tenant types) share it; the API additionally says which rule a refused name broke.
 */
import { domainToASCII } from 'node:url';

const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/** A Host header (or a `?domain=`) to the stored form; '' when it cannot be a host name at all. */
export function normaliseHost(host: string | undefined | null): string {
  let h = (host ?? '').trim().toLowerCase();
  if (!h) return '';
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1); // an IPv6 literal never names a tenant
  const colon = h.lastIndexOf(':');
  if (colon !== -1) h = h.slice(0, colon);
  h = h.replace(/\.$/, '');
  // Percent signs, slashes and spaces are not part of a host name (domainToASCII would decode `%41`).
  if (!h || /[\s%/\\@?#]/.test(h)) return '';
  return domainToASCII(h);
}

export type DomainRule = 'format' | 'length' | 'ip_address' | 'single_label';

/** A name typed by a tenant, checked label by label: the stored form, or the rule it breaks. */
export function parseDomainName(input: string): { domain: string } | { rule: DomainRule; message: string } {
  const raw = input.trim().toLowerCase().replace(/\.$/, '');
  if (!raw || /[\s%/\\@?#:[\]]/.test(raw))
    return { rule: 'format', message: 'must be a host name such as shop.example.com (no scheme, port or path)' };
  const domain = domainToASCII(raw);
  if (!domain) return { rule: 'format', message: 'is not a valid internationalised host name' };
  if (domain.length > 253) return { rule: 'length', message: 'must be at most 253 characters' };
  const labels = domain.split('.');
  if (labels.length < 2) return { rule: 'single_label', message: 'must have at least two labels (shop.example.com)' };
  if (labels.every((l) => /^\d+$/.test(l)))
    return { rule: 'ip_address', message: 'must be a host name, not an IP address' };
  if (!labels.every((l) => LABEL.test(l)))
    return {
      rule: 'format',
      message: 'each label must be 1-63 letters, digits or hyphens, not starting or ending with a hyphen',
    };
  if (/^\d+$/.test(labels[labels.length - 1]!))
    return { rule: 'format', message: 'the top-level label cannot be numeric' };
  return { domain };
}

/** True when `host` is `base` itself or a name under it. */
export function isSameOrSubdomain(host: string, base: string): boolean {
  return host === base || host.endsWith(`.${base}`);
}
