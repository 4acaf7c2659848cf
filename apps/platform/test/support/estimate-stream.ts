/**
 * A steady stream of estimates over kept-alive connections to several landing hosts, behaving like
 * a load balancer: a refused connection goes to the next host; a connection reset before any answer
 * is retried on the next host with the same Idempotency-Key (the answer may have been lost after
 * the commit). It tallies what clients saw, so a test can say "no 5xx" and "every 201 arrived once".
 */
import { randomUUID } from 'node:crypto';

export interface StreamTally {
  /** Emails of the submissions answered 201 (one per logical submission). */
  accepted: Set<string>;
  /** Status codes other than 201 (a 5xx here is a failure a visitor saw). */
  otherStatuses: number[];
  /** Connections refused (the host had stopped listening): retried elsewhere, as a proxy does. */
  refused: number;
  /** Connections closed before an answer: retried with the same Idempotency-Key. */
  resets: number;
}

const causeCode = (e: unknown): string =>
  String((e as { cause?: { code?: string } })?.cause?.code ?? (e as { code?: string })?.code ?? '');

async function tryHost(host: string, email: string, key: string): Promise<number> {
  const t = await fetch(`${host}/local-captcha/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ action: 'estimate', hostname: 'localhost' }),
  });
  const { token } = (await t.json()) as { token: string };
  const r = await fetch(`${host}/api/estimate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': key },
    body: JSON.stringify({ name: 'Stream Visitor', email, form_source: 'faq_inline', captcha_token: token }),
  });
  await r.arrayBuffer();
  return r.status;
}

export function startEstimateStream(
  hosts: string[],
  opts: { everyMs: number; prefix: string },
): { tally: StreamTally; stop(): Promise<void> } {
  const tally: StreamTally = { accepted: new Set(), otherStatuses: [], refused: 0, resets: 0 };
  let running = true;
  let n = 0;
  const submit = async (i: number): Promise<void> => {
    const email = `${opts.prefix}-${i}@example.com`;
    const key = randomUUID();
    for (let attempt = 0; attempt < hosts.length * 3; attempt++) {
      const host = hosts[(i + attempt) % hosts.length]!;
      try {
        const status = await tryHost(host, email, key);
        if (status === 201) tally.accepted.add(email);
        else tally.otherStatuses.push(status);
        return;
      } catch (e) {
        if (causeCode(e) === 'ECONNREFUSED') tally.refused++;
        else tally.resets++;
      }
    }
    tally.otherStatuses.push(-1); // no host took it
  };
  const inFlight = new Set<Promise<void>>();
  const loop = (async () => {
    while (running) {
      const p = submit(n++).finally(() => inFlight.delete(p));
      inFlight.add(p);
      await new Promise((r) => setTimeout(r, opts.everyMs));
    }
  })();
  return {
    tally,
    stop: async () => {
      running = false;
      await loop;
      await Promise.all(inFlight);
    },
  };
}
