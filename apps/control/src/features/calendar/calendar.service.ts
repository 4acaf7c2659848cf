/**
 * Technicians' calendar feeds (docs/control-plane.md, "Calendar feed"): an iCalendar (RFC 5545) feed
 * of a technician's scheduled jobs at a secret URL a phone's calendar subscribes to. The URL's token
 * is random (192 bits) and stored only as its SHA-256; rotating replaces it and revoking removes it,
 * after which the old URL is not found. A technician manages their own feed, the office anyone's.
 */
import { createHash } from 'node:crypto';

import { type Db, withTenant } from '@platform/db';
import { findAnswer, fingerprint, replayStored, storeAnswer } from '@platform/intake';
import { AppError, type Clock, randomToken, type WriteAnswer } from '@platform/kernel';
import type { SecretBox } from '@platform/secrets';
import ical, { ICalEventStatus } from 'ical-generator';

import { memberInScope } from '../accounts/team.repo.js';
import type { Principal } from '../auth/principal.js';
import type { JobsReader } from '../jobs/jobs.service.js';
import { deleteFeed, feedByHash, feedOf, putFeed } from './calendar.repo.js';

/** The feed covers what a technician looks back on and ahead to; older and later jobs are left out. */
const PAST_DAYS = 30;
const AHEAD_DAYS = 180;
const MAX_EVENTS = 500;
const DAY = 86_400_000;

export const CALENDAR_FEED_PATH = '/calendar';

export interface CalendarFeedParts {
  db: Db;
  clock: Clock;
  jobs: Pick<JobsReader, 'list'>;
  /** Seals the URL kept with a rotation's Idempotency-Key: the database holds no usable feed token. */
  box: Pick<SecretBox, 'seal' | 'open'>;
  /** The tenant's public origin (its own host): the field app's job links and the feed URL. */
  origin(tenantId: string): Promise<string>;
}

export type FeedState = { active: boolean; created_at: string | null };
export type RotatedFeed = FeedState & { url: string };
type StoredRotation = FeedState & { url_sealed: string };

const ROTATE_ROUTE = 'calendar-feed:rotate';
class LostRace extends Error {}

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

export class CalendarFeedService {
  constructor(private readonly p: CalendarFeedParts) {}

  /** The technician's feed: active or not (its URL is shown once, when made). */
  async state(who: Principal, technicianId: string): Promise<FeedState> {
    const id = await this.technician(who, technicianId);
    const f = await withTenant(this.p.db, who.tenantId, (tx) => feedOf(tx, who.tenantId, id));
    return { active: !!f, created_at: f ? f.created_at.toISOString() : null };
  }

  /**
   * Makes the feed, or gives it a new URL (the old one stops at once). Under an Idempotency-Key a
   * retry answers the first rotation's URL (kept sealed with the key's stored answer) instead of
   * rotating again; the key used for another technician is IDEMPOTENCY_KEY_REUSED.
   */
  async rotate(who: Principal, technicianId: string, key?: string): Promise<WriteAnswer<RotatedFeed>> {
    const id = await this.technician(who, technicianId);
    const fp = fingerprint('calendar-feed-rotate', { technician: id });
    const aad = `calendar-feed:${who.tenantId}:${id}`;
    const replay = (row: Parameters<typeof replayStored>[0]): WriteAnswer<RotatedFeed> => {
      const a = replayStored<StoredRotation>(row, fp);
      const { url_sealed, ...rest } = a.body;
      return { ...a, body: { ...rest, url: this.p.box.open(url_sealed, aad) } };
    };
    const token = randomToken(24);
    const url = `${await this.p.origin(who.tenantId)}/api/control${CALENDAR_FEED_PATH}/${token}.ics`;
    const out = await withTenant(this.p.db, who.tenantId, async (tx) => {
      const stored = key && (await findAnswer(tx, who.tenantId, ROTATE_ROUTE, key));
      if (stored) return replay(stored);
      const at = await putFeed(tx, who.tenantId, id, hashOf(token));
      const body = { active: true as const, created_at: at.toISOString() };
      const kept = { ...body, url_sealed: this.p.box.seal(url, aad) };
      // A concurrent request under the key stored first: this rotation is undone, its answer replayed.
      if (
        key &&
        !(await storeAnswer(tx, who.tenantId, ROTATE_ROUTE, key, {
          fingerprint: fp,
          outcome: 'updated',
          response: kept,
        }))
      )
        throw new LostRace();
      return { outcome: 'updated' as const, body: { ...body, url }, replayed: false };
    }).catch(async (e: unknown) => {
      if (!(e instanceof LostRace) || !key) throw e;
      const row = await withTenant(this.p.db, who.tenantId, (tx) => findAnswer(tx, who.tenantId, ROTATE_ROUTE, key));
      return replay(row!);
    });
    return out;
  }

  async revoke(who: Principal, technicianId: string): Promise<FeedState> {
    const id = await this.technician(who, technicianId);
    await withTenant(this.p.db, who.tenantId, (tx) => deleteFeed(tx, who.tenantId, id));
    return { active: false, created_at: null };
  }

  /**
   * The iCalendar text of the feed a token opens, or undefined (unknown, rotated or revoked; or
   * asked through another tenant's host, `hostTenant`).
   */
  async feed(token: string, hostTenant?: string): Promise<string | undefined> {
    if (!/^[A-Za-z0-9_-]{32}$/.test(token)) return undefined;
    const f = await feedByHash(this.p.db, hashOf(token));
    if (!f || (hostTenant !== undefined && hostTenant !== f.tenant_id)) return undefined;
    const tech: Principal = { tenantId: f.tenant_id, userId: f.user_id, role: 'technician', email: '' };
    const now = this.p.clock.now().getTime();
    const { items } = await this.p.jobs.list(tech, {
      from: new Date(now - PAST_DAYS * DAY).toISOString(),
      to: new Date(now + AHEAD_DAYS * DAY).toISOString(),
      page: 1,
      page_size: MAX_EVENTS,
    });
    const origin = await this.p.origin(f.tenant_id);
    const cal = ical({ name: 'Jobs', prodId: { company: 'window-platform', product: 'jobs' }, ttl: 15 * 60 });
    for (const j of items) {
      if (!j.scheduled_start) continue;
      const start = new Date(j.scheduled_start);
      const a = j.address;
      const location = [a.street, a.city, [a.state, a.zip].filter(Boolean).join(' ')].filter(Boolean).join(', ');
      const url = `${origin}/field/jobs/${j.id}`;
      cal.createEvent({
        id: `${j.id}@jobs`,
        start,
        end: j.scheduled_end ? new Date(j.scheduled_end) : new Date(start.getTime() + 3_600_000),
        summary: `${j.name}${j.customer?.name ? ` · ${j.customer.name}` : ''}`,
        location: location || null,
        url,
        description: `${j.stage.name}\n${url}`,
        // A cancelled job stays in the feed as cancelled, so subscribed calendars drop it.
        ...(j.stage.key === 'cancelled' ? { status: ICalEventStatus.CANCELLED } : {}),
      });
    }
    return cal.toString();
  }

  /**
   * The technician whose feed this is: `me` is the caller; a technician may name only themselves,
   * the office any technician of the tenant. Anyone else, or another tenant's, is not found.
   */
  private async technician(who: Principal, technicianId: string): Promise<string> {
    const id = technicianId === 'me' ? who.userId : technicianId;
    const notFound = new AppError('NOT_FOUND', 'No such technician.');
    if (who.role === 'technician' && id !== who.userId) throw notFound;
    const m = await withTenant(this.p.db, who.tenantId, (tx) => memberInScope(tx, id));
    if (m?.role !== 'technician') throw notFound;
    return id;
  }
}
