/**
 * The conversions bridge: queues a Lead event for the conversions provider through the outbox (the
 * worker's deps.ts picks the sender). Nothing is queued for a visitor who sent Global Privacy
 * Control, or when the site has no credentials: a tenant's own pixel and Conversions API token
 * (docs/website.md), else the platform's META_* only on the platform's own site (the default
 * tenant), never for another tenant.
 */
import { type ConversionPayload, TOPIC_CONVERSION } from '@platform/contracts';
import type { Db } from '@platform/db';
import { AppError } from '@platform/kernel';
import { enqueue } from '@platform/outbox';
import { hasOwnMetaCapi } from '@platform/website';

import type { CapiLeadInput } from './capi.schemas.js';

const MAX_AGE_S = 7 * 24 * 3600;

export interface CapiResult {
  queued: boolean;
  reason?: 'gpc' | 'not_configured' | 'duplicate';
}

export class CapiBridgeService {
  constructor(
    private readonly db: Db,
    /** META_PIXEL_ID and META_ACCESS_TOKEN are set: the platform's own site's credentials. */
    private readonly platformConfigured: boolean,
    private readonly onQueued?: () => void,
  ) {}

  async relayLead(
    tenant: { tenantId: string; isDefault: boolean },
    input: CapiLeadInput,
    client: { ip: string | null; userAgent: string | null; gpc: boolean },
  ): Promise<CapiResult> {
    const { tenantId } = tenant;
    if (client.gpc) return { queued: false, reason: 'gpc' };
    const configured = (await hasOwnMetaCapi(this.db, tenantId)) || (tenant.isDefault && this.platformConfigured);
    if (!configured) return { queued: false, reason: 'not_configured' };
    const now = Math.floor(Date.now() / 1000);
    const eventTime = input.event_time ?? now;
    if (eventTime > now + 300 || eventTime < now - MAX_AGE_S) {
      throw new AppError('VALIDATION_FAILED', 'event_time must be within the last 7 days.', {
        fieldIssues: [
          { field: 'event_time', rule: 'range', message: 'must be within the last 7 days and not in the future' },
        ],
      });
    }
    const user: ConversionPayload['user'] = {};
    if (input.email) user.email = input.email;
    if (input.phone) user.phone = input.phone;
    if (input.first_name) user.firstName = input.first_name;
    if (input.last_name) user.lastName = input.last_name;
    if (input.fbc) user.fbc = input.fbc;
    if (input.fbp) user.fbp = input.fbp;
    if (client.ip) user.clientIpAddress = client.ip;
    if (client.userAgent) user.clientUserAgent = client.userAgent;
    const payload: ConversionPayload = {
      eventId: input.event_id,
      eventTime,
      eventSourceUrl: input.event_source_url,
      user,
      ...(input.content_name ? { customData: { content_name: input.content_name } } : {}),
    };
    const id = await enqueue(this.db, {
      tenantId,
      topic: TOPIC_CONVERSION,
      aggregateId: input.event_id,
      dedupeKey: `capi:${input.event_id}`,
      payload: { ...payload },
    });
    if (id === null) return { queued: false, reason: 'duplicate' };
    this.onQueued?.();
    return { queued: true };
  }
}
