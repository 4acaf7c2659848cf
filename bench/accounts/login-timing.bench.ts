/**
 * npm run bench:accounts — does a failed sign-in take the same time whether or not the address has an
 * account? Times POST /auth/login (through the real app, inject) for a wrong password of an existing
 * account (baseline) and for an unknown address, interleaved in the same run, and prints the median
 * of each and their ratio (1.00 = indistinguishable by timing). The lockout allowance is raised so the
 * throttle does not cut the run short; everything else is as in production (argon2id, audit writes).
 *
 * Engine: PostgreSQL with TEST_DATABASE_URL, else PGlite. Knobs: BENCH_LOGINS (40 per side), BENCH_ROUNDS (3).
 */
import { startControlKit } from '../../apps/control/src/testing/control-test-kit.js';

const num = (name: string, def: number) => {
  const v = Number(process.env[name] ?? def);
  if (!Number.isInteger(v) || v <= 0) throw new Error(`${name} must be a positive integer`);
  return v;
};
const N = num('BENCH_LOGINS', 40);
const ROUNDS = num('BENCH_ROUNDS', 3);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<number> {
  const kit = await startControlKit({ LOGIN_MAX_FAILURES: '1000', LOGIN_MAX_FAILURES_IP: '100000' });
  try {
    await kit.tenant('bench-a');
    await kit.tenant('bench-b');
    const time = async (email: string, i: number) => {
      const t0 = process.hrtime.bigint();
      const r = await kit.app.inject({
        method: 'POST',
        url: '/auth/login',
        payload: { email, password: `wrong password ${i}` },
        remoteAddress: `10.${i % 250}.0.1`,
      });
      if (r.statusCode !== 401) throw new Error(`expected 401, got ${r.statusCode}`);
      return Number(process.hrtime.bigint() - t0) / 1e6;
    };
    // Warm-up: the dummy hash, JIT, connection.
    for (let i = 0; i < 5; i++) {
      await time('owner@bench-a.test', i);
      await time(`warm${i}@nobody.test`, i);
    }
    const ratios: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const known: number[] = [];
      const unknown: number[] = [];
      for (let i = 0; i < N; i++) {
        known.push(await time(i % 2 ? 'owner@bench-a.test' : 'owner@bench-b.test', i));
        unknown.push(await time(`nobody${round}-${i}@bench.test`, i));
      }
      const ratio = median(unknown) / median(known);
      ratios.push(ratio);
      console.log(
        `round ${round}: wrong password ${median(known).toFixed(1)} ms, unknown address ${median(unknown).toFixed(1)} ms, ratio ${ratio.toFixed(2)}`,
      );
    }
    console.log(
      `failed sign-in time, unknown address / wrong password (median of rounds): ${median(ratios).toFixed(2)}`,
    );
    return 0;
  } finally {
    await kit.close();
  }
}

process.exitCode = await main();
