/**
 * Sending domains: each tenant sends from its own domain once its DNS records (SPF, DKIM,
 * return-path) are verified. The primary provider's plan allows EMAIL_DOMAIN_LIMIT domains (10):
 * the 11th is refused with EMAIL_DOMAIN_LIMIT_REACHED and that tenant keeps sending from the
 * platform's domain with its own reply-to. The DKIM key is ours (2048-bit RSA, the private key
 * sealed with the platform's secret box), published as TXT at `<selector>._domainkey.<domain>`; it
 * signs what goes out over SMTP (SES, the embedded relay). With a registry (the primary's Domains API)
 * the domain is also registered with the primary, whose own DKIM record and return-path CNAME are
 * shown and checked too, and the primary is asked to verify once DNS has them.
 */
import { generateKeyPairSync } from 'node:crypto';

import type { Db } from '@platform/db';
import { AppError } from '@platform/kernel';
import type { SendingDomainRegistry } from '@platform/providers';
import type { SecretBox } from '@platform/secrets';
import {
  countOtherDomains,
  domainOwner,
  type EmailSettings,
  getTenantSettings,
  type SendingDomain,
  setEmailSettings,
} from '@platform/tenancy';

import type { DnsLookup } from './dns.port.js';

export interface DomainPolicy {
  limit: number;
  spfInclude: string;
  returnPathTarget: string;
}

export interface DnsRecord {
  purpose: 'spf' | 'dkim' | 'provider_dkim' | 'return_path' | 'provider';
  type: 'TXT' | 'CNAME';
  host: string;
  value: string;
  /** From the last verification: `found`, or what is missing. */
  check?: string;
}

const DOMAIN_RE = /^(?=.{4,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
export const DKIM_SELECTOR = 'platform1';
export const RETURN_PATH_LABEL = 'pm-bounces';

export class SendingDomainService {
  constructor(
    private readonly db: Db,
    private readonly box: SecretBox,
    private readonly policy: DomainPolicy,
    private readonly dns: DnsLookup,
    private readonly registry?: SendingDomainRegistry,
  ) {}

  async add(tenantId: string, rawDomain: string): Promise<{ domain: SendingDomain; records: DnsRecord[] }> {
    const name = rawDomain.trim().toLowerCase().replace(/\.$/, '');
    if (!DOMAIN_RE.test(name))
      throw new AppError('VALIDATION_FAILED', 'The sending domain is not a domain name.', {
        fieldIssues: [{ field: 'domain', rule: 'format', message: 'must be a domain name such as mail.example.com' }],
      });
    const domain = await this.db.transaction(async (tx) => {
      // One writer at a time, so two tenants cannot both take the tenth slot.
      await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', ['email:sending-domains']);
      const owner = await domainOwner(tx, name);
      if (owner && owner !== tenantId)
        throw new AppError('EMAIL_DOMAIN_TAKEN', `${name} is already the sending domain of another tenant.`);
      const settings: EmailSettings = (await getTenantSettings(tx, tenantId))?.email_settings ?? {};
      if (settings.domain?.name === name) return settings.domain;
      const others = await countOtherDomains(tx, tenantId);
      if (others >= this.policy.limit)
        throw new AppError(
          'EMAIL_DOMAIN_LIMIT_REACHED',
          `The primary email provider's plan allows ${this.policy.limit} sending domains and all are in use; this tenant keeps sending from the platform's domain with its own reply-to.`,
          { details: { limit: this.policy.limit } },
        );
      const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      // Registered with the provider inside the lock: a refusal there leaves nothing half-written here.
      const pd = this.registry ? await this.registry.register(name, `${RETURN_PATH_LABEL}.${name}`) : undefined;
      const spki = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
      const d: SendingDomain = {
        name,
        status: 'pending',
        dkim_selector: DKIM_SELECTOR,
        dkim_record: `v=DKIM1; k=rsa; p=${spki}`,
        dkim_private_key_sealed: this.box.seal(
          privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
          dkimAad(tenantId, name),
        ),
        added_at: new Date().toISOString(),
        ...(pd
          ? {
              provider: {
                name: pd.provider,
                id: pd.id,
                dkim_host: pd.dkimHost,
                dkim_value: pd.dkimValue,
                return_path_domain: pd.returnPathDomain,
                return_path_cname: pd.returnPathCname,
              },
            }
          : {}),
      };
      await setEmailSettings(tx, tenantId, { ...settings, domain: d });
      return d;
    });
    return { domain: domain, records: this.records(domain) };
  }

  /** Removes the tenant's domain (frees its slot on the plan); mail goes from the platform's domain. */
  async remove(tenantId: string): Promise<void> {
    const settings = (await getTenantSettings(this.db, tenantId))?.email_settings ?? {};
    const { domain: gone, ...rest } = settings;
    if (gone?.provider && this.registry) await this.registry.remove(gone.provider.id);
    await setEmailSettings(this.db, tenantId, rest);
  }

  records(d: SendingDomain): DnsRecord[] {
    const checks = d.last_check ?? {};
    const rec = (r: Omit<DnsRecord, 'check'>): DnsRecord =>
      checks[r.purpose] ? { ...r, check: checks[r.purpose]! } : r;
    const p = d.provider;
    return [
      rec({ purpose: 'spf', type: 'TXT', host: d.name, value: `v=spf1 include:${this.policy.spfInclude} ~all` }),
      rec({ purpose: 'dkim', type: 'TXT', host: `${d.dkim_selector}._domainkey.${d.name}`, value: d.dkim_record }),
      ...(p ? [rec({ purpose: 'provider_dkim', type: 'TXT', host: p.dkim_host, value: p.dkim_value })] : []),
      rec({
        purpose: 'return_path',
        type: 'CNAME',
        host: p?.return_path_domain ?? `${RETURN_PATH_LABEL}.${d.name}`,
        value: p?.return_path_cname ?? this.policy.returnPathTarget,
      }),
    ];
  }

  /** Looks the records up in DNS; the domain is verified when all three are there. */
  async verify(tenantId: string): Promise<{ domain: SendingDomain; records: DnsRecord[] }> {
    const settings = (await getTenantSettings(this.db, tenantId))?.email_settings ?? {};
    const d = settings.domain;
    if (!d) throw new AppError('NOT_FOUND', 'This tenant has no sending domain; add one first.');
    const spf = (await this.dns.txt(d.name)).filter((t) => t.startsWith('v=spf1'));
    const dkim = await this.dns.txt(`${d.dkim_selector}._domainkey.${d.name}`);
    const p = d.provider;
    const rp = await this.dns.cname(p?.return_path_domain ?? `${RETURN_PATH_LABEL}.${d.name}`);
    const rpTarget = p?.return_path_cname ?? this.policy.returnPathTarget;
    const norm = (s: string) => s.replace(/\s+/g, '').replace(/;$/, '');
    const pdkim = p ? await this.dns.txt(p.dkim_host) : [];
    const check: Record<string, string> = {
      spf:
        spf.length === 0
          ? 'missing: no v=spf1 TXT record'
          : spf.some((t) => t.includes(`include:${this.policy.spfInclude}`))
            ? 'found'
            : `wrong: the SPF record does not include ${this.policy.spfInclude}`,
      dkim:
        dkim.length === 0
          ? 'missing: no TXT record'
          : dkim.some((t) => norm(t) === norm(d.dkim_record))
            ? 'found'
            : 'wrong: the TXT value differs from the DKIM key shown',
      ...(p
        ? {
            provider_dkim:
              pdkim.length === 0
                ? 'missing: no TXT record'
                : pdkim.some((t) => norm(t) === norm(p.dkim_value))
                  ? 'found'
                  : `wrong: the TXT value differs from ${p.name}'s DKIM key`,
          }
        : {}),
      return_path:
        rp.length === 0
          ? 'missing: no CNAME record'
          : rp.some((c) => c.toLowerCase().replace(/\.$/, '') === rpTarget)
            ? 'found'
            : `wrong: the CNAME points to ${rp[0]}`,
    };
    // Once DNS has everything, the provider checks too (it will not sign or send for the domain before).
    if (p && this.registry && Object.values(check).every((v) => v === 'found')) {
      const v = await this.registry.verify(p.id);
      check.provider =
        v.dkim && v.returnPath
          ? 'found'
          : `pending: ${p.name} has not verified ${!v.dkim ? 'DKIM' : 'the return path'} yet`;
    }
    const ok = Object.values(check).every((v) => v === 'found');
    const now = new Date().toISOString();
    const next: SendingDomain = {
      ...d,
      status: ok ? 'verified' : d.status === 'verified' ? 'failed' : 'pending',
      checked_at: now,
      last_check: check,
      ...(ok ? { verified_at: d.verified_at ?? now } : {}),
    };
    await setEmailSettings(this.db, tenantId, { ...settings, domain: next });
    return { domain: next, records: this.records(next) };
  }

  async show(tenantId: string): Promise<{
    settings: Omit<EmailSettings, 'domain'>;
    domain?: Omit<SendingDomain, 'dkim_private_key_sealed'>;
    records: DnsRecord[];
  }> {
    const { domain, ...rest } = (await getTenantSettings(this.db, tenantId))?.email_settings ?? {};
    if (!domain) return { settings: rest, records: [] };
    const { dkim_private_key_sealed: _secret, ...visible } = domain;
    return { settings: rest, domain: visible, records: this.records(domain) };
  }
}

/** Binds a sealed DKIM key to its tenant and domain (a key copied elsewhere will not open). */
export const dkimAad = (tenantId: string, domain: string): string => `email-dkim:${tenantId}:${domain}`;
