/**
 * The customer's appointment link: the {{portal_link}} of a job's messages, opening
 * /portal/appointment/<token> on the tenant's host. A random token (256 bits) of which only the
 * SHA-256 is kept, scoped to one job, expiring LINK_DAYS_AFTER the job's scheduled end. The URL
 * itself lives only where the messages carrying it live (their schedule rows and the sent texts):
 * a reschedule hands back the link an earlier message of the job already carries, while it is live,
 * so the customer keeps one link per job. The token is never logged or audited.
 */
import { randomBytes } from 'node:crypto';

import type { Queryable } from '@platform/db';
import { newId } from '@platform/kernel';

import * as repo from './appointment-links.repo.js';
import { hashToken, isTokenShaped } from './portal-links.js';

/** The link outlives the visit by this much: the customer looks back at it, or at "done". */
export const LINK_DAYS_AFTER = 14;
const DAY = 86_400_000;
export const APPOINTMENT_PAGE_PATH = '/portal/appointment';

export interface JobWhen {
  jobId: string;
  start: string;
  end: string | null;
}

export const expiryOf = (j: JobWhen) => new Date(Date.parse(j.end ?? j.start) + LINK_DAYS_AFTER * DAY);

/** The token at the end of an appointment URL (anything else: undefined). */
export function tokenOfUrl(url: string | undefined): string | undefined {
  const t = url?.split(`${APPOINTMENT_PAGE_PATH}/`)[1];
  return t && isTokenShaped(t) ? t : undefined;
}

export class AppointmentLinks {
  /**
   * The job's token: `known` (an earlier message's) when it is the job's live link, its expiry moved
   * to the job's new end; otherwise a new link, and any live one whose token is lost is revoked.
   */
  async ensure(tx: Queryable, tenantId: string, j: JobWhen, now: Date, known?: string): Promise<string> {
    const expiresAt = expiryOf(j);
    const live = await repo.liveLinkOfJob(tx, tenantId, j.jobId, now);
    if (live && known && hashToken(known) === live.token_hash) {
      // A job moved later keeps its link past the new date; moved earlier, it expires sooner.
      if (expiresAt > now) await repo.setExpiry(tx, live.id, expiresAt);
      return known;
    }
    if (live) await repo.revokeForJob(tx, tenantId, j.jobId, now);
    const token = randomBytes(32).toString('base64url');
    // A visit already long past still gets a link that lives a day (the "done" page).
    const expires = expiresAt > now ? expiresAt : new Date(now.getTime() + DAY);
    await repo.insertLink(tx, { id: newId(), tenantId, jobId: j.jobId, hash: hashToken(token), expiresAt: expires });
    return token;
  }

  /** The live link of a token inside the tenant's scope (RLS hides other tenants' links). */
  find(tx: Queryable, token: string, now: Date): Promise<repo.AppointmentLinkRow | undefined> {
    if (!isTokenShaped(token)) return Promise.resolve(undefined);
    return repo.liveLinkByHash(tx, hashToken(token), now);
  }
}
