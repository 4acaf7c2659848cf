/**
 * Webhook sender of the LOCAL accounting stand-in, signed exactly like Xero:
 * `x-xero-signature: base64(HMAC-SHA256(webhookKey, raw body))`, body
 * `{"events":[…],"firstEventSequence","lastEventSequence","entropy"}`, `eventDateUtc` without
 * `Z`. A delivery counts as accepted on 200 within 5 s (Xero also wants an empty body).
 * There are no automatic retries: tests re-deliver explicitly.
 */
import { randomBytes } from 'node:crypto';

import { signXeroPayload, XERO_SIGNATURE_HEADER } from '../xero/xero-webhook.js';

export const LOCAL_WEBHOOK_TIMEOUT_MS = 5_000;

export interface WebhookAttempt {
  /** HTTP status, or null when the receiver could not be reached / timed out. */
  status: number | null;
  emptyBody: boolean;
  error?: string;
  at: Date;
}

export interface WebhookDelivery {
  kind: 'event' | 'intent';
  body: string;
  signature: string;
  signedCorrectly: boolean;
  attempts: WebhookAttempt[];
}

export interface IntentToReceiveResult {
  /** Every correctly signed probe got 200 with an empty body and every other one got 401. */
  passed: boolean;
  probes: { signedCorrectly: boolean; status: number | null; emptyBody: boolean }[];
}

const entropy = (): string =>
  randomBytes(15)
    .toString('base64')
    .replace(/[^A-Za-z0-9]/g, 'x')
    .slice(0, 20);

export class LocalWebhookSender {
  readonly deliveries: WebhookDelivery[] = [];
  private readonly inFlight = new Set<Promise<unknown>>();
  private sequence = 0;

  constructor(
    private readonly cfg: { webhookKey: string; webhookUrl: () => string | undefined; apiBase: () => string },
    private readonly nowMs: () => number,
  ) {}

  /** Queues an INVOICE/UPDATE event (fire and forget; see `flush`). No-op without a webhook URL. */
  invoiceUpdated(tenantId: string, invoiceId: string): void {
    this.event(tenantId, 'INVOICE', 'UPDATE', invoiceId);
  }

  /** Queues one event of Xero's categories (INVOICE, CONTACT, CREDITNOTE) in a batch of its own. */
  event(
    tenantId: string,
    category: 'INVOICE' | 'CONTACT' | 'CREDITNOTE',
    type: 'CREATE' | 'UPDATE',
    resourceId: string,
  ): void {
    if (!this.cfg.webhookUrl()) return;
    const seq = ++this.sequence;
    const path = { INVOICE: 'Invoices', CONTACT: 'Contacts', CREDITNOTE: 'CreditNotes' }[category];
    const body = JSON.stringify({
      events: [
        {
          resourceUrl: `${this.cfg.apiBase()}/api.xro/2.0/${path}/${resourceId}`,
          resourceId,
          eventDateUtc: new Date(this.nowMs()).toISOString().replace(/Z$/, ''),
          eventType: type,
          eventCategory: category,
          tenantId,
          tenantType: 'ORGANISATION',
        },
      ],
      firstEventSequence: seq,
      lastEventSequence: seq,
      entropy: entropy(),
    });
    const delivery: WebhookDelivery = {
      kind: 'event',
      body,
      signature: signXeroPayload(body, this.cfg.webhookKey),
      signedCorrectly: true,
      attempts: [],
    };
    this.deliveries.push(delivery);
    this.track(this.attempt(delivery));
  }

  /** Waits until every delivery started so far has finished. */
  async flush(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /** Sends delivery `index` (default: the last one) again `times` times, same body and signature. */
  async redeliver(index = this.deliveries.length - 1, times = 1): Promise<(number | null)[]> {
    const d = this.deliveries[index];
    if (!d) throw new Error(`local accounting: no webhook delivery #${index}`);
    const out: (number | null)[] = [];
    for (let i = 0; i < times; i++) out.push((await this.attempt(d)).status);
    return out;
  }

  /** Xero's intent-to-receive check: `correct` well-signed and `incorrect` badly signed probes, interleaved. */
  async intentToReceive(correct = 2, incorrect = 2): Promise<IntentToReceiveResult> {
    const plan = [...Array<boolean>(correct).fill(true), ...Array<boolean>(incorrect).fill(false)].sort(
      () => Math.random() - 0.5,
    );
    const probes: IntentToReceiveResult['probes'] = [];
    for (const ok of plan) {
      const body = JSON.stringify({ events: [], firstEventSequence: 0, lastEventSequence: 0, entropy: entropy() });
      const key = ok ? this.cfg.webhookKey : `${this.cfg.webhookKey}-wrong-${randomBytes(4).toString('hex')}`;
      const d: WebhookDelivery = {
        kind: 'intent',
        body,
        signature: signXeroPayload(body, key),
        signedCorrectly: ok,
        attempts: [],
      };
      this.deliveries.push(d);
      const a = await this.attempt(d);
      probes.push({ signedCorrectly: ok, status: a.status, emptyBody: a.emptyBody });
    }
    const passed = probes.every((p) => (p.signedCorrectly ? p.status === 200 && p.emptyBody : p.status === 401));
    return { passed, probes };
  }

  private track(p: Promise<unknown>): void {
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p));
  }

  private async attempt(d: WebhookDelivery): Promise<WebhookAttempt> {
    const url = this.cfg.webhookUrl();
    let attempt: WebhookAttempt;
    if (!url) {
      attempt = { status: null, emptyBody: true, error: 'no webhook URL configured', at: new Date(this.nowMs()) };
    } else {
      try {
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', [XERO_SIGNATURE_HEADER]: d.signature },
          body: d.body,
          signal: AbortSignal.timeout(LOCAL_WEBHOOK_TIMEOUT_MS),
        });
        const text = await res.text();
        attempt = { status: res.status, emptyBody: text.length === 0, at: new Date(this.nowMs()) };
      } catch (e) {
        attempt = {
          status: null,
          emptyBody: true,
          error: e instanceof Error ? e.name : 'error',
          at: new Date(this.nowMs()),
        };
      }
    }
    d.attempts.push(attempt);
    return attempt;
  }
}
