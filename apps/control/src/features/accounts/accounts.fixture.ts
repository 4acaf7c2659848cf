/** Helpers of the accounts tests: sign-in calls, problem bodies without their request id, emails. */
import type { LightMyRequestResponse } from 'fastify';

import type { ControlKit } from '../../testing/control-test-kit.js';

export const PASSWORD = 'correct horse battery';

/** A clock the test moves (sessions, throttles and links read it). */
export function testClock(start = Date.now()) {
  let t = start;
  return { now: () => new Date(t), advance: (seconds: number) => void (t += seconds * 1000) };
}

export const post = (kit: ControlKit, url: string, payload: object, opts: { ip?: string; token?: string } = {}) =>
  kit.app.inject({
    method: 'POST',
    url,
    payload,
    remoteAddress: opts.ip ?? '127.0.0.1',
    ...(opts.token ? { headers: { authorization: `Bearer ${opts.token}` } } : {}),
  });

export const get = (kit: ControlKit, url: string, token: string) =>
  kit.app.inject({ url, headers: { authorization: `Bearer ${token}` } });

export const login = (kit: ControlKit, body: { email: string; password: string; tenant?: string }, ip?: string) =>
  post(kit, '/auth/login', body, ip ? { ip } : {});

/** The problem body as a client compares it: everything but the per-request id. */
export function problemOf(r: LightMyRequestResponse): Record<string, unknown> {
  const { request_id: _id, ...rest } = r.json() as Record<string, unknown>;
  return rest;
}

export interface QueuedEmail {
  to: string;
  template: string;
  text: string;
  html: string;
  /** The token of the link in the email (the fragment's `token=`). */
  token: string;
  link: string;
}

/** The emails queued for an address (oldest first), as the outbox will hand them to the provider. */
export async function emailsTo(kit: ControlKit, address: string): Promise<QueuedEmail[]> {
  const r = await kit.t.db.query<{
    template: string;
    payload: { to: { address: string }; text: string; html: string };
  }>(
    `SELECT m.template, o.payload FROM email_messages m JOIN outbox o ON o.aggregate_id = m.id::text
      WHERE m.to_address = $1 ORDER BY o.id`,
    [address],
  );
  return r.rows.map((row) => {
    const link = /(https?:\/\/\S+#token=([A-Za-z0-9_-]{43}))/.exec(row.payload.text);
    return {
      to: row.payload.to.address,
      template: row.template,
      text: row.payload.text,
      html: row.payload.html,
      link: link?.[1] ?? '',
      token: link?.[2] ?? '',
    };
  });
}
