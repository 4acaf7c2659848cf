/**
 * npm run bench:intake — throughput and latency of POST /api/estimate (embedded bot check: the local
 * siteverify stand-in, verified over HTTP) against a plain node:http server doing the same work
 * (baseline.child.ts), in the same run, on the same database engine, and the ratio (goal: >= 0.8).
 *
 * - Engine: PostgreSQL when DATABASE_URL is set (one scratch database per server, dropped at the
 *   end), else PGlite (files under a temp dir, removed at the end).
 * - Each server runs in its own child process; the load generator is wrk (Debian's; installed with
 *   apt-get when missing), one thread, keep-alive, loopback only.
 * - Every request carries its own bot-check token, minted over HTTP on that server just before the
 *   run (tokens verify once and live 2 minutes), and a distinct body, so nothing is folded.
 * - A short warm-up per server, then interleaved rounds (r1 platform first, r2 baseline first, ...);
 *   the ratio platform/baseline of req/s is taken within each round, then the median.
 * - Correctness: after the run, per server, rows in submissions == rows in outbox == 2xx answers
 *   written by the server, and wrk's 2xx <= that <= wrk's 2xx + requests left in flight at wrk's stop.
 * - Exit code 1 on errors (failed requests, non-2xx, token pool exhausted, counts that disagree,
 *   a crash); missing the goal only prints so.
 *
 * Knobs (env): BENCH_ROUNDS (3), BENCH_DURATION (10 s), BENCH_WARMUP (3 s), BENCH_CONNECTIONS (32),
 * BENCH_THREADS (1); BENCH_CPU_PROF=<dir> writes a CPU profile of each server per measured run
 * (summarise with `tsx bench/intake/profile-summary.ts <dir>`). Numbers on this VM are for ratios (shared/reference/performance-anchors.md).
 */
import { fork, spawnSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createPgDb, createPgliteDb, migratePlatform, withDatabase } from '@platform/db';
import type { ChildCommand, ChildMessage, ChildStats } from './child-ipc.js';

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
  warmupS: num('BENCH_WARMUP', 3),
  connections: num('BENCH_CONNECTIONS', 32),
  threads: num('BENCH_THREADS', 1),
  goal: 0.8,
};
/** The local stand-in keeps at most 10 000 tokens (oldest evicted): never mint more for one run. */
const MAX_TOKENS = 9_500;
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
  form_source: 'roller-shades_popup_scroll',
  gclid: 'Cj0KCQiA4NWrBhD-ARIsAFCKwWsQ3bench0x7fK2lN1pQ9rT5uV8wY1zA3bC6dE9fH2jK4mN7pQ0sT3',
  utm_source: 'google',
  utm_medium: 'cpc',
  utm_campaign: 'spring-sale-2026',
  utm_term: 'custom window blinds denver',
  utm_content: 'hero-variant-b',
  lp_slug: 'spring-sale',
  captcha_token: '__TOKEN__',
});

// ---------------------------------------------------------------------------------------------
const cleanups: (() => Promise<void> | void)[] = [];
async function cleanup(): Promise<void> {
  for (const f of cleanups.splice(0).reverse()) await Promise.resolve().then(f).catch((e: unknown) => console.error('cleanup:', e));
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
    const install = () => spawnSync('apt-get', ['install', '-y', '-q', 'wrk'], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
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

  constructor(readonly name: ServerName, private readonly proc: ChildProcess) {
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

  private call(cmd: Exclude<ChildCommand['cmd'], 'profile-stop'>, extra?: undefined): Promise<ChildMessage>;
  private call(cmd: 'profile-stop', extra: { file: string }): Promise<ChildMessage>;
  private call(cmd: ChildCommand['cmd'], extra?: { file: string }): Promise<ChildMessage> {
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
  console.log(`PGlite data directory created and migrated in ${((Date.now() - t0) / 1000).toFixed(1)} s (copied for each server)`);
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

async function mintTokens(url: string, n: number, file: string): Promise<void> {
  const tokens: string[] = new Array(n);
  let next = 0;
  const worker = async () => {
    while (next < n) {
      const i = next++;
      const res = await fetch(`${url}/local-captcha/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"action":"estimate","hostname":"localhost"}',
      });
      if (res.status !== 200) throw new Error(`minting a token: HTTP ${res.status} ${await res.text()}`);
      tokens[i] = ((await res.json()) as { token: string }).token;
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  writeFileSync(file, tokens.join('\n') + '\n');
}

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
    `-t${CFG.threads}`, `-c${CFG.connections}`, `-d${seconds}s`, '--timeout', '30s',
    '-s', join(HERE, 'post.lua'), `${url}/api/estimate`, '--', tokensFile, bodyFile, tag, String(CFG.threads),
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
  wrk: WrkResult;
}

const maxRate: Record<ServerName, number> = { platform: 0, baseline: 0 };

async function oneRun(c: Child, round: string, seconds: number, dir: string, bodyFile: string, tokens?: number): Promise<RunResult> {
  // Generous: a run that outruns its tokens sends cheap token-less requests and is reported as failed.
  const n = tokens ?? Math.min(MAX_TOKENS, Math.max(1_500, Math.ceil(maxRate[c.name] * seconds * 3 + 500)));
  const tokensFile = join(dir, `tokens-${c.name}-${round}.txt`);
  await mintTokens(c.url, n, tokensFile);
  await c.checkpoint();
  await sleep(500);
  const before = await c.stats();
  const profile = PROFILE_DIR && round !== 'w';
  if (profile) await c.profileStart();
  const w = await runWrk(c.url, seconds, tokensFile, bodyFile, `${c.name[0]}${round}`);
  const after = await quiesce(c);
  if (profile) {
    await c.profileStop(join(PROFILE_DIR, `${c.name}-${round}.cpuprofile`));
    const answered = after.answered2xx + after.answeredOther - before.answered2xx - before.answeredOther;
    writeFileSync(join(PROFILE_DIR, `${c.name}-${round}.json`), JSON.stringify({ answered, rps: w.requests / (w.duration_us / 1e6) }));
  }
  rmSync(tokensFile, { force: true });
  const clientOk = w.requests - w.errors.status;
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
    wrk: w,
  };
}

// ---------------------------------------------------------------------------------------------

const f1 = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '-');
const f2 = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : '-');
function table(rows: string[][]): string {
  const w = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((c, i) => (i < 3 ? c.padEnd(w[i]!) : c.padStart(w[i]!))).join('  ')).join('\n');
}

async function main(): Promise<number> {
  const problems: string[] = [];
  const wrkVersion = ensureWrk();
  if (PROFILE_DIR) mkdirSync(PROFILE_DIR, { recursive: true });
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  const setup = await setUpDatabases();
  console.log(`engine: ${setup.engine} | ${wrkVersion} | node ${process.version} | ${cpus().length} CPUs, load average before start ${load} (other work on the machine skews the figures)`);
  console.log(
    `load: wrk -t${CFG.threads} -c${CFG.connections}, warm-up ${CFG.warmupS} s per server, ${CFG.rounds} interleaved rounds of ${CFG.durationS} s, ` +
      `~${BODY_TEMPLATE.length} B bodies, one fresh bot-check token per request`,
  );
  const bodyFile = join(setup.workDir, 'body.json');
  writeFileSync(bodyFile, BODY_TEMPLATE);

  const t0 = Date.now();
  // Started one after the other: both at once would double the start-up time of each on 2 cores.
  const children = {} as Record<ServerName, Child>;
  children.platform = await Child.start('platform', 'platform.child.ts', setup.envOf.platform);
  children.baseline = await Child.start('baseline', 'baseline.child.ts', setup.envOf.baseline);
  console.log(`servers up in ${((Date.now() - t0) / 1000).toFixed(1)} s: platform ${children.platform.url}, baseline ${children.baseline.url}`);

  const all: RunResult[] = [];
  for (const name of SERVERS) {
    const r = await oneRun(children[name], 'w', CFG.warmupS, setup.workDir, bodyFile, Math.min(MAX_TOKENS, 1_000 * CFG.warmupS + 500));
    all.push(r);
    console.log(`warm-up ${name}: ${f1(r.rps)} req/s, ${r.errors} errors/non-2xx${r.exhausted ? ` (${r.exhausted} sent without a token: pool ran out)` : ''}`);
  }

  const rounds: { round: string; order: ServerName[]; platform: RunResult; baseline: RunResult; ratio: number }[] = [];
  for (let i = 1; i <= CFG.rounds; i++) {
    const order: ServerName[] = i % 2 ? ['platform', 'baseline'] : ['baseline', 'platform'];
    const got = {} as Record<ServerName, RunResult>;
    for (const name of order) {
      got[name] = await oneRun(children[name], `r${i}`, CFG.durationS, setup.workDir, bodyFile);
      all.push(got[name]);
      const r = got[name];
      console.log(`r${i} ${name.padEnd(8)} ${f1(r.rps)} req/s  p50 ${f1(r.p50Ms)} ms  p99 ${f1(r.p99Ms)} ms  errors ${r.errors}`);
      if (r.errors) problems.push(`r${i} ${name}: ${r.errors} failed or non-2xx requests (${JSON.stringify(r.wrk.errors)})`);
      if (r.exhausted) problems.push(`r${i} ${name}: the token pool ran out (${r.exhausted} requests without a token)`);
    }
    rounds.push({ round: `r${i}`, order, platform: got.platform, baseline: got.baseline, ratio: got.platform.rps / got.baseline.rps });
  }

  // Correctness: every 2xx is a committed submission with its outbox row; nothing else was written.
  const checks: Record<ServerName, { submissions: number; outbox: number; serverOk: number; clientOk: number; unanswered: number; ok: boolean }> = {} as never;
  for (const name of SERVERS) {
    const s = await children[name].stats();
    const runs = all.filter((r) => r.server === name);
    const clientOk = runs.reduce((a, r) => a + r.clientOk, 0);
    const unanswered = runs.reduce((a, r) => a + Math.max(0, r.unanswered), 0);
    const ok = s.submissions === s.answered2xx && s.outbox === s.submissions && clientOk <= s.answered2xx && s.answered2xx <= clientOk + unanswered;
    checks[name] = { submissions: s.submissions, outbox: s.outbox, serverOk: s.answered2xx, clientOk, unanswered, ok };
    if (!ok) problems.push(`${name}: counts disagree: ${JSON.stringify(checks[name])}`);
  }

  const med = {
    platform: { rps: median(rounds.map((r) => r.platform.rps)), p50Ms: median(rounds.map((r) => r.platform.p50Ms)), p99Ms: median(rounds.map((r) => r.platform.p99Ms)), cpuMsPerReq: median(rounds.map((r) => r.platform.cpuMsPerReq)) },
    baseline: { rps: median(rounds.map((r) => r.baseline.rps)), p50Ms: median(rounds.map((r) => r.baseline.p50Ms)), p99Ms: median(rounds.map((r) => r.baseline.p99Ms)), cpuMsPerReq: median(rounds.map((r) => r.baseline.cpuMsPerReq)) },
    ratio: median(rounds.map((r) => r.ratio)),
    p99Ratio: median(rounds.map((r) => r.platform.p99Ms / r.baseline.p99Ms)),
  };

  const rows: string[][] = [['engine', 'round', 'server', 'req/s', 'p50 ms', 'p99 ms', 'errors/non-2xx', 'node CPU ms/req', 'ratio p/b']];
  for (const r of rounds) {
    for (const name of r.order) {
      const x = r[name];
      rows.push([setup.engine, r.round, name, f1(x.rps), f1(x.p50Ms), f1(x.p99Ms), String(x.errors), f2(x.cpuMsPerReq), name === r.order[1] ? f2(r.ratio) : '']);
    }
  }
  for (const name of SERVERS) {
    const m = med[name];
    const errs = rounds.reduce((a, r) => a + r[name].errors, 0);
    rows.push([setup.engine, 'median', name, f1(m.rps), f1(m.p50Ms), f1(m.p99Ms), String(errs), f2(m.cpuMsPerReq), name === 'baseline' ? f2(med.ratio) : '']);
  }
  console.log('\nPOST /api/estimate (local verifier): platform vs plain node:http baseline, same transaction\n');
  console.log(table(rows));
  console.log(`\ncorrectness: ${SERVERS.map((n) => `${n} ${checks[n].submissions} submissions = ${checks[n].outbox} outbox = ${checks[n].serverOk} 2xx answers (wrk read ${checks[n].clientOk}; ${checks[n].unanswered} left in flight at wrk's stop) ${checks[n].ok ? 'OK' : 'MISMATCH'}`).join('; ')}`);
  const goalMet = med.ratio >= CFG.goal;
  console.log(`goal: ratio >= ${CFG.goal}: ${goalMet ? 'MET' : 'NOT MET'} (median ratio ${f2(med.ratio)}; p99 platform/baseline ${f2(med.p99Ratio)})${goalMet ? '' : ' (reported, not a failure)'}`);
  const result = {
    bench: 'intake',
    engine: setup.engine,
    config: { ...CFG, wrk: wrkVersion, node: process.version, bodyBytes: BODY_TEMPLATE.length, loadavgBefore: load },
    rounds: rounds.map((r) => ({
      round: r.round,
      order: r.order,
      ratio: Number(r.ratio.toFixed(3)),
      ...Object.fromEntries(SERVERS.map((n) => [n, { rps: Number(r[n].rps.toFixed(1)), p50_ms: r[n].p50Ms, p99_ms: r[n].p99Ms, errors: r[n].errors, cpu_ms_per_req: Number(r[n].cpuMsPerReq.toFixed(3)), tokens: r[n].tokens }])),
    })),
    median: {
      platform: { rps: Number(med.platform.rps.toFixed(1)), p50_ms: med.platform.p50Ms, p99_ms: med.platform.p99Ms, cpu_ms_per_req: Number(med.platform.cpuMsPerReq.toFixed(3)) },
      baseline: { rps: Number(med.baseline.rps.toFixed(1)), p50_ms: med.baseline.p50Ms, p99_ms: med.baseline.p99Ms, cpu_ms_per_req: Number(med.baseline.cpuMsPerReq.toFixed(3)) },
      ratio: Number(med.ratio.toFixed(3)),
      p99_ratio: Number(med.p99Ratio.toFixed(3)),
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

let code = 1;
try {
  code = await main();
} catch (e) {
  console.error('bench:intake failed:', e);
  code = 1;
} finally {
  await cleanup();
}
process.exit(code);
