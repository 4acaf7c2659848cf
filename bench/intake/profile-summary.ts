/**
 * Summarises the CPU profiles written by `BENCH_CPU_PROF=<dir> npm run bench:intake`: self time per
 * package or area (fastify, zod, pino, pg, PGlite's wasm, undici/fetch, Node's http, GC, ...), in
 * CPU ms per answered request, for each server, summed over the measured rounds.
 *
 *   npx tsx bench/intake/profile-summary.ts <dir> [top N] [--functions]
 *
 * --functions also lists the functions with the most self time, per server.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

function area(fn: string, url: string): string {
  if (fn === '(garbage collector)') return 'GC';
  if (fn === '(idle)') return '(idle)';
  if (fn === '(program)') return '(program: VM, native)';
  if (url.startsWith('wasm://') || (url === '' && /^\$?[0-9]+$|^\$/.test(fn))) return 'PGlite wasm (Postgres)';
  if (url.includes('node_modules/')) {
    const rest = url.slice(url.lastIndexOf('node_modules/') + 'node_modules/'.length);
    const parts = rest.split('/');
    const pkg = parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
    return pkg === '@electric-sql/pglite' ? 'PGlite JS' : pkg;
  }
  if (url.startsWith('node:internal/deps/undici')) return 'undici (fetch)';
  if (/^node:internal\/(http|_http|streams\/|stream_base|net|dns|tls)|^node:(http|_http|net|stream)/.test(url))
    return 'node http/net/streams';
  if (url.startsWith('node:')) return 'node core (other)';
  const m = /\/(apps\/[^/]+|packages\/[^/]+|bench\/[^/]+)\//.exec(url);
  if (m) return m[1]!;
  if (url === '') return '(native)';
  return url;
}

function summarise(p: Profile, fns: Map<string, number>): Map<string, number> {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const out = new Map<string, number>();
  for (let i = 0; i < p.samples.length; i++) {
    const n = byId.get(p.samples[i]!);
    if (!n) continue;
    const ms = (p.timeDeltas[i] ?? 0) / 1000;
    const a = area(n.callFrame.functionName, n.callFrame.url);
    out.set(a, (out.get(a) ?? 0) + ms);
    if (a === '(idle)') continue;
    const f = `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(apps|packages|bench)\//, '$1/')} [${a}]`;
    fns.set(f, (fns.get(f) ?? 0) + ms);
  }
  return out;
}

const dir = process.argv[2];
const top = Number(process.argv.slice(3).find((a) => /^\d+$/.test(a)) ?? 18);
const listFunctions = process.argv.includes('--functions');
if (!dir) {
  console.error('usage: tsx bench/intake/profile-summary.ts <dir> [top N]');
  process.exit(2);
}
const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
const servers = [...new Set(files.map((f) => f.split('-')[0]!))].sort();
const totals = new Map<string, { ms: Map<string, number>; fns: Map<string, number>; answered: number }>();
for (const s of servers) {
  const t = { ms: new Map<string, number>(), fns: new Map<string, number>(), answered: 0 };
  for (const f of files.filter((x) => x.startsWith(`${s}-`))) {
    for (const [k, v] of summarise(JSON.parse(readFileSync(join(dir, f), 'utf8')) as Profile, t.fns))
      t.ms.set(k, (t.ms.get(k) ?? 0) + v);
    try {
      t.answered += (
        JSON.parse(readFileSync(join(dir, f.replace(/\.cpuprofile$/, '.json')), 'utf8')) as { answered: number }
      ).answered;
    } catch {
      /* no sidecar */
    }
  }
  totals.set(s, t);
}
const areas = new Map<string, number>();
for (const t of totals.values()) for (const [k, v] of t.ms) if (k !== '(idle)') areas.set(k, (areas.get(k) ?? 0) + v);
const order = [...areas.entries()].sort((a, b) => b[1] - a[1]).map(([k]) => k);
const shown = order.slice(0, top);
const rows: string[][] = [['self time, CPU ms per answered request', ...servers]];
const perReq = (s: string, k: string) => {
  const t = totals.get(s)!;
  return t.answered ? (t.ms.get(k) ?? 0) / t.answered : NaN;
};
for (const k of shown) rows.push([k, ...servers.map((s) => perReq(s, k).toFixed(3))]);
const rest = order.slice(top);
rows.push([
  `other (${rest.length} areas)`,
  ...servers.map((s) => rest.reduce((a, k) => a + perReq(s, k), 0).toFixed(3)),
]);
rows.push(['total busy (excl. idle)', ...servers.map((s) => order.reduce((a, k) => a + perReq(s, k), 0).toFixed(3))]);
rows.push(['answered requests profiled', ...servers.map((s) => String(totals.get(s)!.answered))]);
const w = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
console.log(rows.map((r) => r.map((c, i) => (i === 0 ? c.padEnd(w[i]!) : c.padStart(w[i]!))).join('  ')).join('\n'));

if (listFunctions) {
  for (const s of servers) {
    const t = totals.get(s)!;
    console.log(`\n${s}: functions with the most self time (CPU ms per answered request)`);
    for (const [f, ms] of [...t.fns.entries()].sort((a, b) => b[1] - a[1]).slice(0, top)) {
      console.log(`${(ms / (t.answered || 1)).toFixed(3).padStart(8)}  ${f}`);
    }
  }
}
