/**
 * Test helpers of the payments tests: a webhook receiver that keeps each request's raw body and
 * headers and answers the statuses it is told (then 200), and an onboarded connected account made
 * through the stand-in's own onboarding page (as an owner would, without a browser).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  body: string;
  signature: string;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** The next answers, in order (then 200). */
  answers: number[];
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const answers: number[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        body: Buffer.concat(chunks).toString('utf8'),
        signature: String(req.headers['stripe-signature'] ?? ''),
      });
      res.statusCode = answers.shift() ?? 200;
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/stripe`,
    received,
    answers,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** Submits the onboarding page an account link opens; resolves to where it redirected. */
export async function submitOnboarding(linkUrl: string, businessName: string): Promise<string | null> {
  const res = await fetch(linkUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ business_name: businessName }).toString(),
    redirect: 'manual',
  });
  return res.headers.get('location');
}
