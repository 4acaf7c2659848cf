/**
 * "Resolve once `n` have arrived in total", for the local SMTP receivers (the mail stand-in and the
 * tests' sink): call `arrived()` after each arrival; `count` reads how many there are now.
 */
export function arrivalWaiters(count: () => number, noun: string) {
  let waiters: { n: number; resolve: () => void }[] = [];
  return {
    arrived(): void {
      const ready = waiters.filter((w) => count() >= w.n);
      waiters = waiters.filter((w) => count() < w.n);
      for (const w of ready) w.resolve();
    },
    waitFor(n: number, timeoutMs = 10_000): Promise<void> {
      if (count() >= n) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const t = setTimeout(() => reject(new Error(`expected ${n} ${noun}, got ${count()}`)), timeoutMs);
        waiters.push({ n, resolve: () => (clearTimeout(t), resolve()) });
      });
    },
  };
}
