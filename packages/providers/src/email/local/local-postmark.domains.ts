/**
 * The local Postmark stand-in's Domains API (account token): register, verify DKIM and return-path
 * by looking the records up through the DNS lookup it is given, delete. Each domain gets its own
 * DKIM key pair, as Postmark issues one.
 */
import { generateKeyPairSync } from 'node:crypto';

import type { FastifyInstance } from 'fastify';

export interface StandInDns {
  txt(name: string): Promise<string[]>;
  cname(name: string): Promise<string[]>;
}

interface Domain {
  ID: number;
  Name: string;
  DKIMVerified: boolean;
  DKIMPendingHost: string;
  DKIMPendingTextValue: string;
  ReturnPathDomain: string;
  ReturnPathDomainVerified: boolean;
  ReturnPathDomainCNAMEValue: string;
}

export function registerLocalPostmarkDomains(
  app: FastifyInstance,
  accountToken: string,
  dns: StandInDns | undefined,
): Map<number, Domain> {
  const domains = new Map<number, Domain>();
  let next = 36_000;
  app.addHook('onRequest', async (req, reply) => {
    if (req.url.startsWith('/domains') && req.headers['x-postmark-account-token'] !== accountToken)
      return reply.code(401).send({ ErrorCode: 10, Message: 'Bad or missing Account API token.' });
  });
  app.post('/domains', async (req, reply) => {
    const b = (req.body ?? {}) as { Name?: string; ReturnPathDomain?: string };
    if (!b.Name) return reply.code(422).send({ ErrorCode: 300, Message: 'Name is required.' });
    if ([...domains.values()].some((d) => d.Name === b.Name))
      return reply.code(422).send({ ErrorCode: 503, Message: 'This domain already exists.' });
    const spki = generateKeyPairSync('rsa', { modulusLength: 1024 })
      .publicKey.export({ type: 'spki', format: 'der' })
      .toString('base64');
    const d: Domain = {
      ID: next++,
      Name: b.Name,
      DKIMVerified: false,
      DKIMPendingHost: `${new Date().toISOString().replace(/\D/g, '').slice(0, 14)}pm._domainkey.${b.Name}`,
      DKIMPendingTextValue: `k=rsa;p=${spki}`,
      ReturnPathDomain: b.ReturnPathDomain ?? `pm-bounces.${b.Name}`,
      ReturnPathDomainVerified: false,
      ReturnPathDomainCNAMEValue: 'pm.mtasv.net',
    };
    domains.set(d.ID, d);
    return d;
  });
  const find = (id: string) => domains.get(Number(id));
  app.put('/domains/:id/verifyDkim', async (req, reply) => {
    const d = find((req.params as { id: string }).id);
    if (!d) return reply.code(422).send({ ErrorCode: 510, Message: 'This domain was not found.' });
    d.DKIMVerified = Boolean(
      dns && (await dns.txt(d.DKIMPendingHost)).some((t) => t.replace(/\s/g, '') === d.DKIMPendingTextValue),
    );
    return d;
  });
  app.put('/domains/:id/verifyReturnPath', async (req, reply) => {
    const d = find((req.params as { id: string }).id);
    if (!d) return reply.code(422).send({ ErrorCode: 510, Message: 'This domain was not found.' });
    d.ReturnPathDomainVerified = Boolean(
      dns && (await dns.cname(d.ReturnPathDomain)).some((c) => c.replace(/\.$/, '') === d.ReturnPathDomainCNAMEValue),
    );
    return d;
  });
  app.delete('/domains/:id', async (req, reply) => {
    if (!domains.delete(Number((req.params as { id: string }).id)))
      return reply.code(422).send({ ErrorCode: 510, Message: 'This domain was not found.' });
    return { ErrorCode: 0, Message: 'Domain removed.' };
  });
  return domains;
}
