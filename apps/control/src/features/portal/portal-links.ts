/**
 * Customer portal links of a quote: a random token (256 bits) handed out once, of which only the
 * SHA-256 is kept; scoped to one quote and an action set, expiring, revocable. The token itself is
 * never stored, logged or audited (the audit names the link's id).
 */
import { createHash, randomBytes } from 'node:crypto';

import type { Queryable } from '@platform/db';
import { newId } from '@platform/kernel';

import * as repo from './portal-links.repo.js';

export const PORTAL_ACTIONS = ['view', 'accept', 'request_changes'] as const;
export type PortalAction = (typeof PORTAL_ACTIONS)[number];

const TOKEN = /^[A-Za-z0-9_-]{43}$/;
export const hashToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');
export const isTokenShaped = (token: string) => TOKEN.test(token);

export class PortalLinks {
  async issue(
    tx: Queryable,
    l: { tenantId: string; quoteId: string; createdBy: string; expiresAt: Date },
  ): Promise<{ id: string; token: string }> {
    const token = randomBytes(32).toString('base64url');
    const id = newId();
    await repo.insertLink(tx, {
      id,
      tenantId: l.tenantId,
      quoteId: l.quoteId,
      hash: hashToken(token),
      actions: [...PORTAL_ACTIONS],
      expiresAt: l.expiresAt,
      createdBy: l.createdBy,
    });
    return { id, token };
  }

  /** The live link of a token as seen inside the tenant's scope (RLS hides other tenants' links). */
  find(tx: Queryable, token: string, now: Date): Promise<repo.PortalLinkRow | undefined> {
    if (!isTokenShaped(token)) return Promise.resolve(undefined);
    return repo.liveLinkByHash(tx, hashToken(token), now);
  }

  revokeAll(tx: Queryable, tenantId: string, quoteId: string, now: Date): Promise<number> {
    return repo.revokeForQuote(tx, tenantId, quoteId, now);
  }

  acceptance(tx: Queryable, tenantId: string, quoteId: string) {
    return repo.acceptanceOf(tx, tenantId, quoteId);
  }

  markOpened(tx: Queryable, linkId: string, at: Date) {
    return repo.markOpened(tx, linkId, at);
  }

  markAccepted(tx: Queryable, linkId: string, a: { at: Date; name: string; signatureKey: string }) {
    return repo.markAccepted(tx, linkId, a);
  }
}

/** When each of these quotes was first opened in the portal (the messages feature's follow-up asks). */
export const quotesFirstOpened = (tx: Queryable, tenantId: string, quoteIds: string[]) =>
  repo.firstOpened(tx, tenantId, quoteIds);
