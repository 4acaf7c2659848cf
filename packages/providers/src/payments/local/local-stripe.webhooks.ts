/**
 * Events and their delivery as Stripe does it (docs.stripe.com/webhooks, /connect/webhooks): an
 * `event` object (`evt_…`, `account` set for a connected account's event) POSTed as JSON to every
 * enabled endpoint that wants the type (Connect endpoints get connected accounts' events, the others
 * the platform's own), signed `Stripe-Signature: t=…,v1=…` with that endpoint's `whsec_` secret, and
 * retried on a non-2xx answer or no answer with growing delays (Stripe: up to three days; here the
 * `retryDelaysMs` given, so tests need not wait). Each attempt is re-signed with its own timestamp.
 */
import { randomBytes } from 'node:crypto';

import { signStripePayload } from '../stripe/stripe-webhook.js';
import { newId, type Obj } from './local-stripe.objects.js';

export interface LocalWebhookEndpoint {
  id: string;
  url: string;
  secret: string;
  /** Connected accounts' events (true) or the platform's own (false). */
  connect: boolean;
  /** `['*']` for every type. */
  enabledEvents: string[];
}

export interface LocalStripeDelivery {
  eventId: string;
  type: string;
  endpointId: string;
  /** Status per attempt; null when the endpoint could not be reached. */
  attempts: (number | null)[];
  body: string;
}

export const DEFAULT_RETRY_DELAYS_MS = [1_000, 5_000, 30_000, 120_000, 600_000];
export const LOCAL_API_VERSION = '2026-10-28.endive';

export class LocalStripeWebhooks {
  readonly endpoints: LocalWebhookEndpoint[] = [];
  readonly events: Obj[] = [];
  readonly deliveries: LocalStripeDelivery[] = [];
  private readonly inFlight = new Set<Promise<unknown>>();
  private closed = false;

  constructor(
    private readonly now: () => Date,
    private readonly retryDelaysMs: number[],
  ) {}

  addEndpoint(p: { url: string; connect?: boolean; enabledEvents?: string[]; secret?: string }): LocalWebhookEndpoint {
    const e: LocalWebhookEndpoint = {
      id: newId('we_'),
      url: p.url,
      secret: p.secret ?? `whsec_${randomBytes(24).toString('base64url')}`,
      connect: p.connect ?? false,
      enabledEvents: p.enabledEvents ?? ['*'],
    };
    this.endpoints.push(e);
    return e;
  }

  /** Records an event and starts its deliveries (not awaited: Stripe answers the API call first). */
  emit(
    type: string,
    object: Obj,
    account: string | null,
    request: { id: string | null; idempotencyKey: string | null },
  ): Obj {
    const event: Obj = {
      id: newId('evt_'),
      object: 'event',
      api_version: LOCAL_API_VERSION,
      created: Math.floor(this.now().getTime() / 1000),
      data: { object: structuredClone(object) },
      livemode: false,
      pending_webhooks: 0,
      request: { id: request.id, idempotency_key: request.idempotencyKey },
      type,
      ...(account && { account }),
    };
    const targets = this.endpoints.filter(
      (e) => e.connect === (account !== null) && (e.enabledEvents.includes('*') || e.enabledEvents.includes(type)),
    );
    event['pending_webhooks'] = targets.length;
    this.events.push(event);
    const body = JSON.stringify(event, null, 2);
    for (const e of targets) {
      const d: LocalStripeDelivery = { eventId: String(event['id']), type, endpointId: e.id, attempts: [], body };
      this.deliveries.push(d);
      this.track(this.deliver(e, d, 0));
    }
    return event;
  }

  /** One attempt of `d` to `e`, signed now; false when it was not acknowledged with a 2xx. */
  async attempt(e: LocalWebhookEndpoint, d: LocalStripeDelivery): Promise<boolean> {
    const t = Math.floor(this.now().getTime() / 1000);
    let status: number | null;
    try {
      const res = await fetch(e.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
          'stripe-signature': signStripePayload(d.body, e.secret, t),
        },
        body: d.body,
        signal: AbortSignal.timeout(10_000),
      });
      await res.arrayBuffer();
      status = res.status;
    } catch {
      status = null;
    }
    d.attempts.push(status);
    return status !== null && status >= 200 && status < 300;
  }

  private async deliver(e: LocalWebhookEndpoint, d: LocalStripeDelivery, retry: number): Promise<void> {
    if (this.closed || (await this.attempt(e, d))) return;
    const delay = this.retryDelaysMs[retry];
    if (delay === undefined || this.closed) return;
    await this.sleep(delay);
    await this.deliver(e, d, retry + 1);
  }

  private readonly sleeping = new Map<NodeJS.Timeout, () => void>();
  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        this.sleeping.delete(t);
        resolve();
      }, ms);
      this.sleeping.set(t, resolve);
    });
  }

  /** Sends an earlier event again to every endpoint that got it (a duplicate, as Stripe may send). */
  async resend(eventId: string): Promise<(number | null)[]> {
    const out: (number | null)[] = [];
    for (const d of this.deliveries.filter((x) => x.eventId === eventId)) {
      const e = this.endpoints.find((x) => x.id === d.endpointId);
      if (e) {
        await this.attempt(e, d);
        out.push(d.attempts.at(-1) ?? null);
      }
    }
    return out;
  }

  private track(p: Promise<unknown>): void {
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p));
  }

  async flush(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  async close(): Promise<void> {
    this.closed = true;
    // Pending retries are dropped at shutdown (Stripe would go on; a restarted stand-in starts afresh).
    for (const [t, wake] of this.sleeping) {
      clearTimeout(t);
      wake();
    }
    await this.flush();
  }
}
