/**
 * npm run bench:email — sends per second through the email outbox (enqueue committed, then the
 * transactional lane claims, checks the message row and the suppression list, sends over SMTP and
 * records the result) against the same SMTP adapter sending directly (baseline), both to one real
 * SMTP server on loopback (smtp-server), in the same run. Prints each round and the median ratio.
 *
 * Then the SMS lane (sms-lane.ts): the SMS outbox against direct calls to the local SMS stand-in.
 *
 * Engine: PostgreSQL when DATABASE_URL is set (a scratch database, dropped at the end), else an
 * in-memory PGlite. Knobs (env): BENCH_EMAILS (400 per round and side), BENCH_ROUNDS (3).
 * Exit code 1 when a mail is missing or sent twice, or a message row is not `sent`.
 */
import { randomBytes } from 'node:crypto';

import { createPgDb, createPgliteDb, type Db, migratePlatform, withDatabase } from '@platform/db';
import { emailConfigDefaults, startEmailLanes, upsertTenantSettings } from '@platform/email';
import { startSmtpSink } from '@platform/email/test-support/smtp-sink.js';
import { createSmtpSender, type EmailMessage } from '@platform/providers';
import pg from 'pg';

import { smsLane } from './sms-lane.js';

const num = (name: string, def: number) => {
  const v = Number(process.env[name] ?? def);
  if (!Number.isInteger(v) || v <= 0) throw new Error(`${name} must be a positive integer`);
  return v;
};
const N = num('BENCH_EMAILS', 400);
const ROUNDS = num('BENCH_ROUNDS', 3);
const CONCURRENCY = 10; // sends in flight at once, as an email lane's send wave (SEND_WAVE)
const silent = { info() {}, warn() {}, error() {} };

async function openDb(): Promise<{ db: Db; engine: string; drop(): Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const db = await createPgliteDb();
    return { db, engine: 'PGlite (in memory)', drop: () => db.close() };
  }
  const name = `bench_email_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const db = createPgDb({ url: withDatabase(url, name), max: 10 });
  return {
    db,
    engine: 'PostgreSQL',
    drop: async () => {
      await db.close();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<number> {
  const { db, engine, drop } = await openDb();
  const smtp = await startSmtpSink({ parse: false });
  let failed = false;
  try {
    await migratePlatform(db);
    const tenantId = (
      await db.query<{ id: string }>(
        `INSERT INTO tenants (slug, name, is_default) VALUES ('bench', 'Bench Blinds', true) RETURNING id`,
      )
    ).rows[0]!.id;
    await upsertTenantSettings(db, tenantId, {
      company_name: 'Bench Blinds',
      primary_color: '#336699',
      email: 'office@bench.test',
    });
    const config = emailConfigDefaults({ EMAIL_SMTP_URL: smtp.url, EMAIL_PLATFORM_DOMAIN: 'platform.test' });
    const lanes = startEmailLanes({ config, db, logger: silent, workerId: 'bench', start: false });
    const direct = createSmtpSender({ name: 'smtp', url: smtp.url, messageIdDomain: 'platform.test' });
    const rounds: { outbox: number; direct: number }[] = [];
    console.log(`bench:email — ${engine}, ${N} mails per side per round, ${ROUNDS} rounds, SMTP server on loopback`);
    // Round 0 warms both paths up (JIT, connections, PGlite caches) and is not counted.
    for (let r = 0; r <= ROUNDS; r++) {
      // Baseline: the same adapter and message, straight to the SMTP server, CONCURRENCY at a time.
      const template = await lanes.services.outbox.compose(db, {
        tenantId,
        template: 'password_reset',
        to: { address: 'x@example.com' },
        key: 'k',
        data: { resetUrl: 'https://app.bench.test/reset?t=1' },
      });
      const before = smtp.mails.length;
      let t0 = performance.now();
      for (let i = 0; i < N; i += CONCURRENCY)
        await Promise.all(
          Array.from({ length: Math.min(CONCURRENCY, N - i) }, (_, j) =>
            direct.send({
              ...template,
              id: `${r}-${i + j}`,
              to: { address: `direct${i + j}@example.com` },
            } as EmailMessage),
          ),
        );
      const directRate = N / ((performance.now() - t0) / 1000);
      // Outbox: enqueue (committed), then the lane drains it.
      for (let i = 0; i < N; i++)
        await lanes.services.outbox.enqueue({
          tenantId,
          template: 'password_reset',
          to: { address: `user${i}@example.com` },
          key: `r${r}-${i}`,
          data: { resetUrl: `https://app.bench.test/reset?t=${r}-${i}` },
        });
      t0 = performance.now();
      while ((await lanes.transactional.tick()) > 0);
      const outboxRate = N / ((performance.now() - t0) / 1000);
      await smtp.waitFor(before + 2 * N, 30_000).catch(() => undefined);
      const got = smtp.mails.length - before;
      const sent = (
        await db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM email_messages WHERE message_key LIKE $1 AND status = 'sent'`,
          [`r${r}-%`],
        )
      ).rows[0]!.n;
      if (got !== 2 * N || sent !== N) {
        console.error(`round ${r}: expected ${2 * N} mails and ${N} sent rows, got ${got} mails and ${sent} rows`);
        failed = true;
      }
      if (r === 0) continue;
      rounds.push({ outbox: outboxRate, direct: directRate });
      console.log(
        `round ${r}: outbox ${outboxRate.toFixed(0)} sends/s, direct SMTP ${directRate.toFixed(0)} sends/s, ratio ${(outboxRate / directRate).toFixed(2)}`,
      );
    }
    const ratio = median(rounds.map((x) => x.outbox / x.direct));
    console.log(
      `median: outbox ${median(rounds.map((x) => x.outbox)).toFixed(0)} sends/s, direct ${median(rounds.map((x) => x.direct)).toFixed(0)} sends/s, ratio outbox/direct ${ratio.toFixed(2)}`,
    );
    await direct.close?.();
    await lanes.close();
    // The SMS lane: the same shape of comparison against the local SMS stand-in.
    const texts = await smsLane(db, tenantId, { n: N, rounds: ROUNDS, concurrency: CONCURRENCY });
    texts.forEach((x, i) =>
      console.log(
        `sms round ${i + 1}: outbox ${x.outbox.toFixed(0)} texts/s, direct ${x.direct.toFixed(0)} texts/s, ratio ${(x.outbox / x.direct).toFixed(2)}`,
      ),
    );
    if (texts.some((x) => x.failed)) {
      console.error('sms: a text is missing or was sent twice');
      failed = true;
    }
    console.log(
      `sms median: outbox ${median(texts.map((x) => x.outbox)).toFixed(0)} texts/s, direct ${median(texts.map((x) => x.direct)).toFixed(0)} texts/s, ratio outbox/direct ${median(texts.map((x) => x.outbox / x.direct)).toFixed(2)}`,
    );
  } finally {
    await smtp.close();
    await drop();
  }
  return failed ? 1 : 0;
}

process.exitCode = await main();
