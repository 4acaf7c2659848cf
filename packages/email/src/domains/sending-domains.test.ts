/**
 * Sending domains against a DNS server on loopback: records are shown, verification reads them from
 * DNS, a verified domain's mail is DKIM-signed with its key; the plan's limit refuses the 11th (here
 * the 3rd) domain and that tenant keeps sending from the platform's domain.
 */
import { randomBytes } from 'node:crypto';

import { createSecretBox, parseKeyring } from '@platform/secrets';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { composeEmail } from '../email.compose.js';
import { type LocalDns, startLocalDns } from '../test-support/dns-zone.js';
import { type EmailHarness, startEmailHarness } from '../test-support/email-harness.js';
import { createDnsLookup } from './dns.port.js';
import { SendingDomainService } from './sending-domains.service.js';

let h: EmailHarness;
let dns: LocalDns;
let domains: SendingDomainService;
const box = createSecretBox(parseKeyring(`k1:${randomBytes(32).toString('base64')}`));

beforeAll(async () => {
  h = await startEmailHarness();
  dns = await startLocalDns();
  domains = new SendingDomainService(
    h.t.db,
    box,
    { limit: 2, spfInclude: 'spf.mtasv.net', returnPathTarget: 'pm.mtasv.net' },
    createDnsLookup([dns.server]),
  );
});
afterAll(async () => {
  await dns?.close();
  await h?.close();
});

describe('sending domains', () => {
  it("shows the DNS records, verifies them from DNS, and signs the domain's mail with its DKIM key", async () => {
    const { records } = await domains.add(h.beta, 'Mail.Beta.TEST');
    expect(records.map((r) => [r.purpose, r.type, r.host])).toEqual([
      ['spf', 'TXT', 'mail.beta.test'],
      ['dkim', 'TXT', 'platform1._domainkey.mail.beta.test'],
      ['return_path', 'CNAME', 'pm-bounces.mail.beta.test'],
    ]);
    const first = await domains.verify(h.beta);
    expect(first.domain.status).toBe('pending');
    expect(first.records.map((r) => r.check)).toEqual([
      'missing: no v=spf1 TXT record',
      'missing: no TXT record',
      'missing: no CNAME record',
    ]);
    dns.txt.set('mail.beta.test', ['v=spf1 include:spf.mtasv.net ~all']);
    dns.txt.set('platform1._domainkey.mail.beta.test', [records[1]!.value]);
    dns.cname.set('pm-bounces.mail.beta.test', 'pm.mtasv.net');
    const second = await domains.verify(h.beta);
    expect(second.domain.status).toBe('verified');
    expect(JSON.stringify(await domains.show(h.beta))).not.toContain('sealed');

    // The embedded SMTP path (no Postmark) signs with the tenant's key.
    const services = composeEmail(
      {
        ...h.config,
        POSTMARK_SERVER_TOKEN: undefined,
        EMAIL_SMTP_URL: h.smtp.url,
        EMAIL_SECONDARY_SMTP_URL: undefined,
      },
      h.t.db,
      { info() {}, warn() {} },
      { box },
    );
    const before = h.smtp.mails.length;
    const { messageId } = await services.outbox.enqueue({
      tenantId: h.beta,
      template: 'lead_acknowledgement',
      to: { address: 'lead@example.com' },
      key: 'ack-1',
      data: { name: 'Lee' },
    });
    const row = (await h.t.db.query('SELECT * FROM outbox WHERE aggregate_id = $1', [messageId])).rows[0] as never;
    expect(await services.delivery.deliver(row)).toMatchObject({ status: 'sent', provider: 'smtp' });
    await h.smtp.waitFor(before + 1);
    const mail = h.smtp.mails.at(-1)!.parsed;
    expect(mail.from?.value[0]?.address).toBe('no-reply@mail.beta.test');
    expect(mail.headerLines.find((l) => l.key === 'dkim-signature')?.line).toMatch(
      /d=mail\.beta\.test;[\s\S]*s=platform1;/,
    );
    await services.close();
  });

  it("refuses a domain beyond the plan's limit, and that tenant keeps the platform's domain with its reply-to", async () => {
    // Acme (harness) has mail.acme.test, Beta has mail.beta.test: the limit of 2 is reached.
    const gamma = (
      await h.t.db.query<{ id: string }>(
        `INSERT INTO tenants (slug, name) VALUES ('gamma', 'Gamma Shutters') RETURNING id`,
      )
    ).rows[0]!.id;
    await expect(domains.add(gamma, 'mail.gamma.test')).rejects.toMatchObject({ code: 'EMAIL_DOMAIN_LIMIT_REACHED' });
    await expect(domains.add(gamma, 'mail.acme.test')).rejects.toMatchObject({ code: 'EMAIL_DOMAIN_TAKEN' });
    await expect(domains.add(gamma, 'not a domain')).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    const m = await h.lanes.services.outbox.compose(h.t.db, {
      tenantId: gamma,
      template: 'lead_acknowledgement',
      to: { address: 'x@example.com' },
      key: 'k',
      data: { name: 'X' },
    });
    expect(m.from).toEqual({ address: 'no-reply@platform.test', name: 'Gamma Shutters' });
    await domains.remove(h.beta); // a freed slot can be taken
    expect((await domains.add(gamma, 'mail.gamma.test')).domain.status).toBe('pending');
  });
});

describe('sending domains registered with Postmark', () => {
  it("shows Postmark's DKIM record and return path, and is verified once DNS has them and Postmark agrees", async () => {
    const { createPostmarkDomains } = await import('@platform/providers');
    const { startLocalPostmark } = await import('@platform/providers/local');
    const lookup = createDnsLookup([dns.server]);
    const pm = await startLocalPostmark({
      serverToken: 'server-token-x',
      accountToken: 'account-token-x',
      dns: lookup,
    });
    try {
      const withPm = new SendingDomainService(
        h.t.db,
        box,
        { limit: 10, spfInclude: 'spf.mtasv.net', returnPathTarget: 'pm.mtasv.net' },
        lookup,
        createPostmarkDomains({ accountToken: 'account-token-x', baseUrl: pm.url }),
      );
      const delta = (
        await h.t.db.query<{ id: string }>(`INSERT INTO tenants (slug, name) VALUES ('delta', 'Delta') RETURNING id`)
      ).rows[0]!.id;
      const { records } = await withPm.add(delta, 'mail.delta.test');
      const pmDkim = records.find((r) => r.purpose === 'provider_dkim')!;
      expect(pmDkim.host).toMatch(/^\d{14}pm\._domainkey\.mail\.delta\.test$/);
      expect(pmDkim.value).toMatch(/^k=rsa;p=/);
      for (const r of records) {
        if (r.type === 'TXT') dns.txt.set(r.host, [...(dns.txt.get(r.host) ?? []), r.value]);
        else dns.cname.set(r.host, r.value);
      }
      const v = await withPm.verify(delta);
      expect(v.domain.status).toBe('verified');
      expect(v.domain.last_check).toMatchObject({ provider: 'found', provider_dkim: 'found' });
    } finally {
      await pm.close();
    }
  });
});

describe('scheduled domain checks', () => {
  it("fail a verified domain whose DNS records went away, so its mail goes from the platform's domain", async () => {
    const { recheckDomains } = await import('./domain-recheck.js');
    const delta = (await h.t.db.query<{ id: string }>(`SELECT id FROM tenants WHERE slug = 'delta'`)).rows[0]!.id;
    const compose = () =>
      h.lanes.services.outbox.compose(h.t.db, {
        tenantId: delta,
        template: 'lead_acknowledgement',
        to: { address: 'x@example.com' },
        key: 'k',
        data: { name: 'X' },
      });
    expect((await compose()).from.address).toBe('no-reply@mail.delta.test');
    dns.txt.delete('platform1._domainkey.mail.delta.test');
    const r = await recheckDomains(h.t.db, domains);
    expect(r.checked).toBeGreaterThanOrEqual(2);
    const shown = await domains.show(delta);
    expect(shown.domain?.status).toBe('failed');
    expect(shown.records.find((x) => x.purpose === 'dkim')?.check).toBe('missing: no TXT record');
    expect((await compose()).from.address).toBe('no-reply@platform.test');
  });
});
