/**
 * npm run bench:intake — throughput and latency of POST /api/estimate (embedded bot check: the local
 * siteverify stand-in, verified over HTTP) against a plain node:http server doing the same work
 * (baseline.child.ts), in the same run, on the same database engine, and the ratio (goal: >= 0.8).
 *
 * - Engine: PostgreSQL when DATABASE_URL is set (one scratch database per server, dropped at the
 *   end), else PGlite (files under a temp dir, removed at the end).
 * - Each server runs in its own child process; the load generator is wrk (Debian's; installed with
 *   apt-get when missing), one thread, keep-alive, loopback only.
 * - Every request carries its own bot-check token, minted on that server just before the run (tokens
 *   verify once and live 2 minutes; the platform's through its POST /local-captcha/token route with
 *   Fastify's inject, in-process, because minting thousands over HTTP took seconds), and a distinct
 *   body, so nothing is folded.
 * - A warm-up of both servers at once, then interleaved rounds (r1 platform first, r2 baseline
 *   first, ...); the ratio platform/baseline of req/s is taken within each round, then the median.
 * - Correctness, after each wrk run and over the whole run, per server: new rows in submissions ==
 *   new rows in outbox == 2xx answers written by the server, and wrk's 2xx <= that <= wrk's 2xx +
 *   requests left in flight when wrk stopped (the server still answers and commits those).
 * - Exit code 1 on errors (failed requests, non-2xx, token pool exhausted, counts that disagree,
 *   a crash); missing the goal only prints so.
 *
 * Knobs (env): BENCH_ROUNDS (3), BENCH_DURATION (10 s), BENCH_WARMUP (5 s, both servers at once),
 * BENCH_CONNECTIONS (32), BENCH_THREADS (1); BENCH_CPU_PROF=<dir> writes a CPU profile of each server
 * per measured run (summarise with `npx tsx bench/intake/profile-summary.ts <dir>`); BENCH_DEBUG=1
 * prints minting and drain times. Diagnosis only: BENCH_PLATFORM_VARIANT (platform.child.ts).
 * Numbers on a shared 2-core VM are for ratios (performance-anchors.md in the shared reference).
 */
import { type ChildProcess, fork, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { createPgDb, createPgliteDb, migratePlatform, withDatabase } from '@platform/db';
import pg from 'pg';

import { BENCH_TOKEN_CAPACITY, type ChildCommand, type ChildMessage, type ChildStats } from './child-ipc.js';
import { BENCH_ATTRIBUTION } from './estimate-form.js';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const ROOT = join(HERE, '..', '..');
const num = (name: string, def: number) => {
  const v = Number(process.env[name] ?? def);
  if (!Number.isFinite(v) || v <= 0) throw new Error(`${name} must be a positive number`);
  return v;
};
const CFG = {
  rounds: num('BENCH_ROUNDS', 3),
  durationS: num('BENCH_DURATION', 10),
  warmupS: num('BENCH_WARMUP', 5),
  connections: num('BENCH_CONNECTIONS', 32),
  threads: num('BENCH_THREADS', 1),
  goal: 0.8,
};
/** Each stand-in keeps BENCH_TOKEN_CAPACITY tokens (oldest evicted): never mint more for one run. */
const MAX_TOKENS = BENCH_TOKEN_CAPACITY - 1_000;
/** BENCH_CPU_PROF=<dir>: CPU-profile each server during every measured run (profile-summary.ts reads them). */
const PROFILE_DIR = process.env.BENCH_CPU_PROF ?? '';
const SERVERS = ['platform', 'baseline'] as const;
type ServerName = (typeof SERVERS)[number];

// ---------------------------------------------------------------------------------------------
// A realistic estimate form (about 1 KB), distinct per request through __SEQ__.
const BODY_TEMPLATE = JSON.stringify({
  name: 'Bench Visitor __SEQ__',
  phone: '+1 (303) 555-0142',
  email: 'visitor.__SEQ__@example.com',
  zip: '80202',
  products: ['roller-shades', 'cellular-shades', 'plantation-shutters'],
  message:
    'Hello, we just moved in and would like an estimate for the living room (three large windows facing west, ' +
    'about 72 by 60 inches each), two bedrooms and the kitchen door. We are thinking about blackout cellular ' +
    'shades for the bedrooms and something light-filtering downstairs; motorised if the price is reasonable. ' +
    'Weekday evenings or Saturday mornings work best for a visit. Ref __SEQ__',
  ...BENCH_ATTRIBUTION,
  captcha_token: '__TOKEN__',
});

// ---------------------------------------------------------------------------------------------
const cleanups: (() => Promise<void> | void)[] = [];
async function cleanup(): Promise<void> {
  for (const f of cleanups.splice(0).reverse())
    await Promise.resolve()
      .then(f)
      .catch((e: unknown) => console.error('cleanup:', e));
}
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.once(sig, () => {
    console.error(`\n${sig}: cleaning up`);
    void cleanup().finally(() => process.exit(130));
  });
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length === 0 ? NaN : s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

function ensureWrk(): string {
  const ok = () => spawnSync('wrk', ['-v'], { encoding: 'utf8' });
  let r = ok();
  if (r.error) {
    console.log('wrk is missing: installing it with apt-get (Debian package wrk)');
    const install = () =>
      spawnSync('apt-get', ['install', '-y', '-q', 'wrk'], {
        stdio: 'inherit',
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      });
    if (install().status !== 0) {
      spawnSync('apt-get', ['update', '-q'], { stdio: 'inherit' });
      install();
    }
    r = ok();
    if (r.error) throw new Error('wrk is not installed and apt-get could not install it (run: apt-get install -y wrk)');
  }
  return `${r.stdout}${r.stderr}`.split('\n')[0]!.trim();
}

// ---------------------------------------------------------------------------------------------
// Children

class Child {
  private nextId = 1;
  private waiting = new Map<number, { resolve: (m: ChildMessage) => void; reject: (e: Error) => void }>();
  url = '';
  engine = '';
  exited = false;

  constructor(
    readonly name: ServerName,
    private readonly proc: ChildProcess,
  ) {
    proc.on('message', (m: ChildMessage) => {
      if (m.type === 'reply') {
        const w = this.waiting.get(m.id);
        this.waiting.delete(m.id);
        if (!w) return;
        if (m.ok) w.resolve(m);
        else w.reject(new Error(`${name}: ${m.error}`));
      }
    });
    proc.on('exit', (code, sig) => {
      this.exited = true;
      for (const w of this.waiting.values()) w.reject(new Error(`${name} server exited (${code ?? sig})`));
      this.waiting.clear();
    });
  }

  static start(name: ServerName, file: string, env: Record<string, string>): Promise<Child> {
    const proc = fork(join(HERE, file), [], {
      cwd: ROOT,
      execArgv: ['--import', 'tsx'],
      env: { ...process.env, ...env },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const child = new Child(name, proc);
    cleanups.push(() => child.stop());
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`${name} server did not start within 180 s`)), 180_000);
      proc.on('message', (m: ChildMessage) => {
        if (m.type !== 'ready') return;
        clearTimeout(t);
        child.url = m.url;
        child.engine = m.engine;
        resolve(child);
      });
      proc.on('exit', (code) => {
        clearTimeout(t);
        reject(new Error(`${name} server exited during start (code ${code})`));
      });
    });
  }

  private call(cmd: Exclude<ChildCommand['cmd'], 'profile-stop' | 'mint'>, extra?: undefined): Promise<ChildMessage>;
  private call(cmd: 'profile-stop', extra: { file: string }): Promise<ChildMessage>;
  private call(cmd: 'mint', extra: { n: number; file: string }): Promise<ChildMessage>;
  private call(cmd: ChildCommand['cmd'], extra?: { file: string; n?: number }): Promise<ChildMessage> {
    if (this.exited) return Promise.reject(new Error(`${this.name} server is not running`));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.proc.send({ cmd, id, ...extra } as ChildCommand);
    });
  }

  async profileStart(): Promise<void> {
    await this.call('profile-start');
  }

  async profileStop(file: string): Promise<void> {
    await this.call('profile-stop', { file });
  }

  async stats(): Promise<ChildStats> {
    const m = await this.call('stats');
    if (m.type !== 'reply' || !m.ok || !m.stats) throw new Error(`${this.name}: no stats`);
    return m.stats;
  }

  async mint(n: number, file: string): Promise<void> {
    await this.call('mint', { n, file });
  }

  async checkpoint(): Promise<void> {
    await this.call('checkpoint');
  }

  async stop(): Promise<void> {
    if (this.exited) return;
    const exited = new Promise<void>((r) => this.proc.once('exit', () => r()));
    await Promise.race([this.call('close').catch(() => {}), sleep(10_000)]);
    const t = setTimeout(() => this.proc.kill('SIGKILL'), 5_000);
    if (!this.exited) this.proc.kill('SIGTERM');
    await exited;
    clearTimeout(t);
  }
}

// ---------------------------------------------------------------------------------------------
// Databases

interface Setup {
  engine: 'postgresql' | 'pglite';
  envOf: Record<ServerName, Record<string, string>>;
  workDir: string;
}

async function setUpDatabases(): Promise<Setup> {
  const workDir = mkdtempSync(join(tmpdir(), 'intake-bench-'));
  cleanups.push(() => rmSync(workDir, { recursive: true, force: true }));
  const server = process.env.DATABASE_URL;
  if (server) {
    const stamp = `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
    const names = { platform: `intake_bench_${stamp}_p`, baseline: `intake_bench_${stamp}_b` };
    const admin = async (sql: string) => {
      const c = new pg.Client({ connectionString: server });
      await c.connect();
      try {
        await c.query(sql);
      } finally {
        await c.end().catch(() => {});
      }
    };
    for (const n of Object.values(names)) {
      await admin(`CREATE DATABASE ${n}`);
      cleanups.push(() => admin(`DROP DATABASE IF EXISTS ${n} WITH (FORCE)`));
    }
    // The landing host migrates its own database at start; the baseline's is migrated here.
    const db = createPgDb({ url: withDatabase(server, names.baseline), max: 2 });
    try {
      await migratePlatform(db);
    } finally {
      await db.close();
    }
    return {
      engine: 'postgresql',
      workDir,
      envOf: {
        platform: { BENCH_DATABASE_URL: withDatabase(server, names.platform) },
        baseline: { BENCH_DATABASE_URL: withDatabase(server, names.baseline) },
      },
    };
  }
  // PGlite: creating a data directory is slow (initdb), so make one migrated template and copy it.
  const template = join(workDir, 'template');
  const t0 = Date.now();
  const db = await createPgliteDb({ dataDir: template });
  try {
    await migratePlatform(db);
  } finally {
    await db.close();
  }
  cpSync(template, join(workDir, 'platform', 'platform'), { recursive: true });
  cpSync(template, join(workDir, 'baseline'), { recursive: true });
  rmSync(template, { recursive: true, force: true });
  console.log(
    `PGlite data directory created and migrated in ${((Date.now() - t0) / 1000).toFixed(1)} s (copied for each server)`,
  );
  return {
    engine: 'pglite',
    workDir,
    envOf: {
      platform: { BENCH_DATA_DIR: join(workDir, 'platform') },
      baseline: { BENCH_PGLITE_DIR: join(workDir, 'baseline') },
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Tokens and load

interface WrkResult {
  requests: number;
  duration_us: number;
  sent: number;
  exhausted: number;
  errors: { connect: number; read: number; write: number; status: number; timeout: number };
  latency_us: { min: number; mean: number; p50: number; p90: number; p99: number; max: number };
}

function runWrk(url: string, seconds: number, tokensFile: string, bodyFile: string, tag: string): Promise<WrkResult> {
  const args = [
    `-t${CFG.threads}`,
    `-c${CFG.connections}`,
    `-d${seconds}s`,
    '--timeout',
    '30s',
    '-s',
    join(HERE, 'post.lua'),
    `${url}/api/estimate`,
    '--',
    tokensFile,
    bodyFile,
    tag,
    String(CFG.threads),
  ];
  return new Promise((resolve, reject) => {
    const p = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stdout.on('data', (d: Buffer) => (out += d));
    p.stderr.on('data', (d: Buffer) => (err += d));
    p.on('error', reject);
    p.on('close', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('BENCH_JSON '));
      if (code !== 0 || !line) return reject(new Error(`wrk failed (code ${code}): ${err || out}`));
      resolve(JSON.parse(line.slice('BENCH_JSON '.length)) as WrkResult);
    });
  });
}

/** Waits until the server has answered everything wrk left in flight (answer count stable). */
async function quiesce(c: Child): Promise<ChildStats> {
  let last = await c.stats();
  for (let i = 0; i < 150; i++) {
    await sleep(200);
    const s = await c.stats();
    const same = s.answered2xx + s.answeredOther === last.answered2xx + last.answeredOther;
    last = s;
    if (same && s.submissions === s.answered2xx) break;
    if (same && i >= 10) break;
  }
  return last;
}

interface RunResult {
  server: ServerName;
  round: string;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  /** wrk errors (connect/read/write/timeout) + non-2xx answers. */
  errors: number;
  clientOk: number;
  serverOk: number;
  unanswered: number;
  exhausted: number;
  tokens: number;
  cpuMsPerReq: number;
  /** Answers other than 201 written by the server, by status code. */
  otherCodes: Record<string, number>;
  /** This run's new submissions and outbox rows == the 2xx answers the server wrote, and wrk's 2xx agree. */
  rowsOk: boolean;
  wrk: WrkResult;
}

const maxRate: Record<ServerName, number> = { platform: 0, baseline: 0 };

async function oneRun(
  c: Child,
  round: string,
  seconds: number,
  dir: string,
  bodyFile: string,
  tokens?: number,
): Promise<RunResult> {
  // Generous: a run that outruns its tokens sends cheap token-less requests and is reported as failed.
  const n = tokens ?? Math.min(MAX_TOKENS, Math.max(6_000, Math.ceil(maxRate[c.name] * seconds * 3 + 1_000)));
  const tokensFile = join(dir, `tokens-${c.name}-${round}.txt`);
  const tm = Date.now();
  await c.mint(n, tokensFile);
  if (process.env.BENCH_DEBUG) console.log(`  ${c.name} ${round}: minted ${n} tokens in ${Date.now() - tm} ms`);
  await c.checkpoint();
  await sleep(500);
  const before = await c.stats();
  const profile = PROFILE_DIR && round !== 'w';
  if (profile) await c.profileStart();
  const w = await runWrk(c.url, seconds, tokensFile, bodyFile, `${c.name[0]}${round}`);
  const tq = Date.now();
  const after = await quiesce(c);
  if (process.env.BENCH_DEBUG) console.log(`  ${c.name} ${round}: quiesced in ${Date.now() - tq} ms`);
  if (profile) {
    await c.profileStop(join(PROFILE_DIR, `${c.name}-${round}.cpuprofile`));
    const answered = after.answered2xx + after.answeredOther - before.answered2xx - before.answeredOther;
    writeFileSync(
      join(PROFILE_DIR, `${c.name}-${round}.json`),
      JSON.stringify({ answered, rps: w.requests / (w.duration_us / 1e6) }),
    );
  }
  rmSync(tokensFile, { force: true });
  const clientOk = w.requests - w.errors.status;
  const codes: Record<string, number> = {};
  for (const [k, v] of Object.entries(after.codes))
    if (k !== '201' && v - (before.codes[k] ?? 0) > 0) codes[k] = v - (before.codes[k] ?? 0);
  const serverOk = after.answered2xx - before.answered2xx;
  const answered = serverOk + (after.answeredOther - before.answeredOther);
  const rps = w.requests / (w.duration_us / 1e6);
  maxRate[c.name] = Math.max(maxRate[c.name], clientOk / (w.duration_us / 1e6));
  return {
    server: c.name,
    round,
    rps,
    p50Ms: w.latency_us.p50 / 1000,
    p99Ms: w.latency_us.p99 / 1000,
    errors: w.errors.connect + w.errors.read + w.errors.write + w.errors.timeout + w.errors.status,
    clientOk,
    serverOk,
    unanswered: w.sent - w.requests,
    exhausted: w.exhausted,
    tokens: n,
    cpuMsPerReq: answered ? (after.cpuUs - before.cpuUs) / 1000 / answered : NaN,
    otherCodes: codes,
    rowsOk:
      after.submissions - before.submissions === serverOk &&
      after.outbox - before.outbox === serverOk &&
      clientOk <= serverOk &&
      serverOk <= clientOk + Math.max(0, w.sent - w.requests),
    wrk: w,
  };
}

// ---------------------------------------------------------------------------------------------

const r1 = (x: number) => Math.round(x * 10) / 10;
const r3 = (x: number) => Math.round(x * 1000) / 1000;
const f1 = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '-');
const f2 = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : '-');
function table(rows: string[][]): string {
  const w = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((c, i) => (i < 3 ? c.padEnd(w[i]!) : c.padStart(w[i]!))).join('  ')).join('\n');
}

async function main(): Promise<number> {
  const tStart = Date.now();
  const problems: string[] = [];
  const wrkVersion = ensureWrk();
  if (PROFILE_DIR) mkdirSync(PROFILE_DIR, { recursive: true });
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  const setup = await setUpDatabases();
  console.log(
    `engine: ${setup.engine} | ${wrkVersion} | node ${process.version} | ${cpus().length} CPUs, load average before start ${load} (other work on the machine skews the figures)`,
  );
  console.log(
    `load: wrk -t${CFG.threads} -c${CFG.connections}, warm-up ${CFG.warmupS} s (both servers at once), ${CFG.rounds} interleaved rounds of ${CFG.durationS} s, ` +
      `~${BODY_TEMPLATE.length} B bodies, one fresh bot-check token per request`,
  );
  const bodyFile = join(setup.workDir, 'body.json');
  writeFileSync(bodyFile, BODY_TEMPLATE);

  const t0 = Date.now();
  const [platform, baseline] = await Promise.all([
    Child.start('platform', 'platform.child.ts', setup.envOf.platform),
    Child.start('baseline', 'baseline.child.ts', setup.envOf.baseline),
  ]);
  const children: Record<ServerName, Child> = { platform, baseline };
  console.log(
    `servers up in ${((Date.now() - t0) / 1000).toFixed(1)} s: platform ${children.platform.url}, baseline ${children.baseline.url}`,
  );

  // Warm-up (JIT, PGlite's wasm tier-up, caches, pools): both servers at once, not measured.
  const all: RunResult[] = [];
  const warm = await Promise.all(
    SERVERS.map((name) =>
      oneRun(children[name], 'w', CFG.warmupS, setup.workDir, bodyFile, Math.min(MAX_TOKENS, 5_000 * CFG.warmupS)),
    ),
  );
  for (const r of warm) {
    const name = r.server;
    all.push(r);
    if (!r.rowsOk) problems.push(`warm-up ${name}: rows written do not match the 2xx answers`);
    console.log(
      `warm-up ${name} (both at once): ${f1(r.rps)} req/s, p99 ${f1(r.p99Ms)} ms, ${r.errors} errors/non-2xx ${JSON.stringify(r.otherCodes)}${r.exhausted ? ` (${r.exhausted} sent without a token: pool ran out)` : ''}`,
    );
  }

  const rounds: { round: string; order: ServerName[]; platform: RunResult; baseline: RunResult; ratio: number }[] = [];
  for (let i = 1; i <= CFG.rounds; i++) {
    const order: ServerName[] = i % 2 ? ['platform', 'baseline'] : ['baseline', 'platform'];
    const got = {} as Record<ServerName, RunResult>;
    for (const name of order) {
      got[name] = await oneRun(children[name], `r${i}`, CFG.durationS, setup.workDir, bodyFile);
      all.push(got[name]);
      const r = got[name];
      console.log(
        `r${i} ${name.padEnd(8)} ${f1(r.rps)} req/s  p50 ${f1(r.p50Ms)} ms  p99 ${f1(r.p99Ms)} ms  errors ${r.errors}`,
      );
      if (r.errors)
        problems.push(
          `r${i} ${name}: ${r.errors} failed or non-2xx requests (wrk ${JSON.stringify(r.wrk.errors)}; server answered ${JSON.stringify(r.otherCodes)})`,
        );
      if (!r.rowsOk) problems.push(`r${i} ${name}: rows written in this run do not match its 2xx answers`);
      if (r.exhausted) problems.push(`r${i} ${name}: the token pool ran out (${r.exhausted} requests without a token)`);
    }
    rounds.push({
      round: `r${i}`,
      order,
      platform: got.platform,
      baseline: got.baseline,
      ratio: got.platform.rps / got.baseline.rps,
    });
  }

  // Correctness: every 2xx is a committed submission with its outbox row; nothing else was written.
  const checks: Record<
    ServerName,
    { submissions: number; outbox: number; serverOk: number; clientOk: number; unanswered: number; ok: boolean }
  > = {} as never;
  for (const name of SERVERS) {
    const s = await children[name].stats();
    const runs = all.filter((r) => r.server === name);
    const clientOk = runs.reduce((a, r) => a + r.clientOk, 0);
    const unanswered = runs.reduce((a, r) => a + Math.max(0, r.unanswered), 0);
    const ok =
      s.submissions === s.answered2xx &&
      s.outbox === s.submissions &&
      clientOk <= s.answered2xx &&
      s.answered2xx <= clientOk + unanswered;
    checks[name] = { submissions: s.submissions, outbox: s.outbox, serverOk: s.answered2xx, clientOk, unanswered, ok };
    if (!ok) problems.push(`${name}: counts disagree: ${JSON.stringify(checks[name])}`);
  }

  const med = {
    platform: {
      rps: median(rounds.map((r) => r.platform.rps)),
      p50Ms: median(rounds.map((r) => r.platform.p50Ms)),
      p99Ms: median(rounds.map((r) => r.platform.p99Ms)),
      cpuMsPerReq: median(rounds.map((r) => r.platform.cpuMsPerReq)),
    },
    baseline: {
      rps: median(rounds.map((r) => r.baseline.rps)),
      p50Ms: median(rounds.map((r) => r.baseline.p50Ms)),
      p99Ms: median(rounds.map((r) => r.baseline.p99Ms)),
      cpuMsPerReq: median(rounds.map((r) => r.baseline.cpuMsPerReq)),
    },
    ratio: median(rounds.map((r) => r.ratio)),
    p99Ratio: median(rounds.map((r) => r.platform.p99Ms / r.baseline.p99Ms)),
    /** Baseline/platform server CPU per request: less sensitive to other work on the machine than req/s. */
    cpuRatio: median(rounds.map((r) => r.baseline.cpuMsPerReq / r.platform.cpuMsPerReq)),
  };

  const rows: string[][] = [
    ['engine', 'round', 'server', 'req/s', 'p50 ms', 'p99 ms', 'errors/non-2xx', 'server CPU ms/req', 'ratio p/b'],
  ];
  for (const r of rounds) {
    for (const name of r.order) {
      const x = r[name];
      rows.push([
        setup.engine,
        r.round,
        name,
        f1(x.rps),
        f1(x.p50Ms),
        f1(x.p99Ms),
        String(x.errors),
        f2(x.cpuMsPerReq),
        name === r.order[1] ? f2(r.ratio) : '',
      ]);
    }
  }
  for (const name of SERVERS) {
    const m = med[name];
    const errs = rounds.reduce((a, r) => a + r[name].errors, 0);
    rows.push([
      setup.engine,
      'median',
      name,
      f1(m.rps),
      f1(m.p50Ms),
      f1(m.p99Ms),
      String(errs),
      f2(m.cpuMsPerReq),
      name === 'baseline' ? f2(med.ratio) : '',
    ]);
  }
  console.log('\nPOST /api/estimate (local verifier): platform vs plain node:http baseline, same transaction\n');
  console.log(table(rows));
  console.log(
    'ratio p/b: platform req/s / baseline req/s in the same round; server CPU: the server process (PGlite runs inside it), per answered request',
  );
  console.log(
    `\ncorrectness (warm-ups included): ${SERVERS.map((n) => `${n} ${checks[n].submissions} submissions = ${checks[n].outbox} outbox = ${checks[n].serverOk} 2xx answers (wrk read ${checks[n].clientOk}; <= ${checks[n].unanswered} left in flight at wrk's stops) ${checks[n].ok ? 'OK' : 'MISMATCH'}`).join('; ')}`,
  );
  const loadAfter = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  console.log(
    `load average at the end ${loadAfter} (this bench alone keeps about 2-3 busy); total ${((Date.now() - tStart) / 1000).toFixed(0)} s`,
  );
  const goalMet = med.ratio >= CFG.goal;
  console.log(
    `goal: ratio >= ${CFG.goal}: ${goalMet ? 'MET' : 'NOT MET'} (median ratio ${f2(med.ratio)}; p99 platform/baseline ${f2(med.p99Ratio)}; server CPU per request baseline/platform ${f2(med.cpuRatio)})${goalMet ? '' : ' (reported, not a failure)'}`,
  );
  const result = {
    bench: 'intake',
    engine: setup.engine,
    config: {
      ...CFG,
      wrk: wrkVersion,
      node: process.version,
      bodyBytes: BODY_TEMPLATE.length,
      loadavgBefore: load,
      loadavgAfter: loadAfter,
    },
    rounds: rounds.map((r) => ({
      round: r.round,
      order: r.order,
      ratio: r3(r.ratio),
      ...Object.fromEntries(
        SERVERS.map((n) => [
          n,
          {
            rps: r1(r[n].rps),
            p50_ms: r1(r[n].p50Ms),
            p99_ms: r1(r[n].p99Ms),
            errors: r[n].errors,
            non2xx: r[n].otherCodes,
            cpu_ms_per_req: r3(r[n].cpuMsPerReq),
            tokens: r[n].tokens,
          },
        ]),
      ),
    })),
    median: {
      platform: {
        rps: r1(med.platform.rps),
        p50_ms: r1(med.platform.p50Ms),
        p99_ms: r1(med.platform.p99Ms),
        cpu_ms_per_req: r3(med.platform.cpuMsPerReq),
      },
      baseline: {
        rps: r1(med.baseline.rps),
        p50_ms: r1(med.baseline.p50Ms),
        p99_ms: r1(med.baseline.p99Ms),
        cpu_ms_per_req: r3(med.baseline.cpuMsPerReq),
      },
      ratio: r3(med.ratio),
      p99_ratio: r3(med.p99Ratio),
      cpu_ratio: r3(med.cpuRatio),
    },
    goal: CFG.goal,
    goal_met: goalMet,
    correctness: checks,
    problems,
  };
  console.log(`BENCH_RESULT ${JSON.stringify(result)}`);
  if (problems.length) {
    console.error(`\nerrors:\n- ${problems.join('\n- ')}`);
    return 1;
  }
  return 0;
}

let code: number;
try {
  code = await main();
} catch (e) {
  console.error('bench:intake failed:', e);
  code = 1;
} finally {
  await cleanup();
}
process.exit(code);
