/**
 * npm run bench:recovery: how soon a backlog built up during an ERP outage reaches the ERP once it
 * answers again. Two workers (in process, on one platform database) with the default retry backoff;
 * estimates are queued steadily while the ERP is down for BENCH_OUTAGE_S (default 20) seconds. Then
 * the ERP comes back and the bench times until every row is delivered: once with the recovery probe
 * (ERP_RECOVERY_PROBE_MS, default 1000) and once without it (the baseline: rows wake only when their
 * own backoff ends), capped at BENCH_CAP_S (default 180). Prints both and their ratio.
 */
import { TOPIC_ESTIMATE } from '@platform/contracts';
import { startTestErp } from '@platform/erp-embedded/testing';
import { enqueue } from '@platform/outbox';

import { loadWorkerConfig } from '../../apps/worker/src/config.js';
import { startWorker } from '../../apps/worker/src/worker.js';
import { createPlatformDb, estimatePayload, insertSubmission } from '../../apps/worker/test/support/payloads.js';

const OUTAGE_S = Math.max(1, Number(process.env.BENCH_OUTAGE_S ?? 20));
const CAP_S = Math.max(10, Number(process.env.BENCH_CAP_S ?? 180));
const PROBE_MS = process.env.ERP_RECOVERY_PROBE_MS ?? '1000';
const EVERY_MS = 200;

/** `floor`: the same rows queued with the ERP up and no worker running, then drained: pure throughput. */
async function run(probeMs: string, floorRows = 0): Promise<{ rows: number; seconds: number; capped: boolean }> {
  const platform = await createPlatformDb();
  const erp = await startTestErp({ db: platform.db, listen: floorRows > 0 });
  const config = loadWorkerConfig({
    ERP_URL: erp.url,
    ERP_API_KEY: erp.apiKey,
    ERP_DB: erp.dbName,
    LOG_LEVEL: 'silent',
    ERP_RECOVERY_PROBE_MS: probeMs,
    CHANGE_FEED_POLL_MS: '0',
    PRUNE_INTERVAL_MS: '0',
  });
  const queue = async () => {
    const p = estimatePayload();
    await insertSubmission(platform.db, platform.tenantId, p);
    await platform.db.transaction((tx) =>
      enqueue(tx, { tenantId: platform.tenantId, topic: TOPIC_ESTIMATE, aggregateId: p.submissionId, payload: p }),
    );
  };
  for (let i = 0; i < floorRows; i++) await queue();
  const back = Date.now();
  const workers = [await startWorker(config, { db: platform.db }), await startWorker(config, { db: platform.db })];
  let rows = floorRows;
  const downUntil = floorRows > 0 ? 0 : Date.now() + OUTAGE_S * 1000;
  while (Date.now() < downUntil) {
    await queue();
    rows++;
    for (const w of workers) w.wake();
    await new Promise((r) => setTimeout(r, EVERY_MS));
  }
  if (floorRows === 0) await erp.listen();
  const since = floorRows > 0 ? back : Date.now();
  let capped = true;
  while (Date.now() - since < CAP_S * 1000) {
    const r = await platform.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM outbox WHERE topic = $1 AND status <> 'done'`,
      [TOPIC_ESTIMATE],
    );
    if (r.rows[0]!.n === 0) {
      capped = false;
      break;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const seconds = (Date.now() - since) / 1000;
  for (const w of workers) await w.close();
  await erp.close();
  await platform.t.drop();
  return { rows, seconds, capped };
}

const show = (r: { rows: number; seconds: number; capped: boolean }) =>
  `${r.rows} rows, all delivered ${r.capped ? `> ${CAP_S} s (cap)` : `${r.seconds.toFixed(1)} s`} after the ERP returned`;
process.stdout.write(`ERP down ${OUTAGE_S} s, an estimate every ${EVERY_MS} ms, two workers, default backoff\n`);
const probed = await run(PROBE_MS);
process.stdout.write(`with the recovery probe (every ${PROBE_MS} ms): ${show(probed)}\n`);
const floor = await run(PROBE_MS, probed.rows);
process.stdout.write(
  `floor, the same rows with the ERP up all along: ${show(floor).replace(' after the ERP returned', '')}\n`,
);
const baseline = await run('0');
process.stdout.write(`baseline, no probe (rows wake when their backoff ends): ${show(baseline)}\n`);
process.stdout.write(
  `ratio baseline / probed: ${(baseline.seconds / Math.max(probed.seconds, 0.001)).toFixed(1)}x${baseline.capped ? ' (at least: the baseline hit the cap)' : ''}\n`,
);
