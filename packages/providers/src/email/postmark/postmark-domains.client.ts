/**
 * Postmark's Domains API (account token, `X-Postmark-Account-Token`): POST /domains registers a
 * sending domain and answers Postmark's DKIM record (`DKIMPendingHost`/`DKIMPendingTextValue` until
 * verified) and return-path CNAME; PUT /domains/{id}/verifyDkim and /verifyReturnPath make Postmark
 * check DNS; DELETE /domains/{id} removes it.
 */
import { providerFetch } from '../../http/provider-http.js';
import { EmailSendError, type ProviderDomain, type SendingDomainRegistry } from '../email.port.js';

export interface PostmarkDomainsOptions {
  accountToken: string;
  baseUrl?: string;
  timeoutMs?: number;
}

interface PostmarkDomain {
  ID: number;
  Name: string;
  DKIMVerified?: boolean;
  DKIMHost?: string;
  DKIMTextValue?: string;
  DKIMPendingHost?: string;
  DKIMPendingTextValue?: string;
  ReturnPathDomain?: string;
  ReturnPathDomainVerified?: boolean;
  ReturnPathDomainCNAMEValue?: string;
}

export function createPostmarkDomains(o: PostmarkDomainsOptions): SendingDomainRegistry {
  const base = (o.baseUrl ?? 'https://api.postmarkapp.com').replace(/\/$/, '');
  const call = async (method: string, path: string, body?: unknown): Promise<PostmarkDomain> => {
    const res = await providerFetch(
      `${base}${path}`,
      {
        method,
        headers: {
          accept: 'application/json',
          'x-postmark-account-token': o.accountToken,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        ...(body ? { body: JSON.stringify(body) } : {}),
      },
      {
        label: 'postmark domains',
        timeoutMs: o.timeoutMs ?? 10_000,
        causeInMessage: true,
        error: (_kind, message) => new EmailSendError('unavailable', message, 'postmark'),
      },
    );
    const reply = (res.json ?? {}) as PostmarkDomain & { ErrorCode?: number; Message?: string };
    if (!res.ok) {
      const what = `postmark domains: HTTP ${res.status}${reply.ErrorCode ? ` ErrorCode ${reply.ErrorCode}` : ''}${reply.Message ? `: ${reply.Message}` : ''}`;
      throw new EmailSendError(
        res.status >= 500 ? 'unavailable' : res.status === 401 ? 'account' : 'rejected',
        what,
        'postmark',
      );
    }
    return reply;
  };
  return {
    name: 'postmark',
    async register(domain, returnPathDomain): Promise<ProviderDomain> {
      const d = await call('POST', '/domains', { Name: domain, ReturnPathDomain: returnPathDomain });
      return {
        provider: 'postmark',
        id: String(d.ID),
        dkimHost: d.DKIMPendingHost || d.DKIMHost || '',
        dkimValue: d.DKIMPendingTextValue || d.DKIMTextValue || '',
        returnPathDomain: d.ReturnPathDomain ?? returnPathDomain,
        returnPathCname: d.ReturnPathDomainCNAMEValue ?? 'pm.mtasv.net',
      };
    },
    async verify(id) {
      const dkim = await call('PUT', `/domains/${encodeURIComponent(id)}/verifyDkim`);
      const rp = await call('PUT', `/domains/${encodeURIComponent(id)}/verifyReturnPath`);
      return { dkim: dkim.DKIMVerified === true, returnPath: rp.ReturnPathDomainVerified === true };
    },
    async remove(id) {
      await call('DELETE', `/domains/${encodeURIComponent(id)}`);
    },
  };
}
