/**
 * Gauges read from the database when Prometheus scrapes (not on a timer): nothing runs between
 * scrapes, and each scrape sees the current value. A failed read drops the gauge's series for that
 * scrape (no stale numbers) and counts the failure (visible from the next scrape: a registry reads its
 * metrics in parallel), so the scrape itself still succeeds.
 */
import { Counter, Gauge, type Registry } from 'prom-client';

export interface CollectedGaugeSpec<L extends string> {
  name: string;
  help: string;
  labelNames: readonly L[];
  /** One value per label set, read at scrape time. */
  read: () => Promise<{ labels: Record<L, string>; value: number }[]>;
}

export function collectedGauge<L extends string>(registry: Registry, spec: CollectedGaugeSpec<L>): Gauge<L> {
  const failures =
    (registry.getSingleMetric('metrics_collect_failures_total') as Counter<'metric'> | undefined) ??
    new Counter({
      name: 'metrics_collect_failures_total',
      help: 'Scrape-time reads that failed (the metric named in `metric` was left out of that scrape).',
      labelNames: ['metric'],
      registers: [registry],
    });
  return new Gauge<L>({
    name: spec.name,
    help: spec.help,
    labelNames: spec.labelNames,
    registers: [registry],
    async collect() {
      let rows: Awaited<ReturnType<typeof spec.read>>;
      try {
        rows = await spec.read();
      } catch {
        this.reset();
        failures.inc({ metric: spec.name });
        return;
      }
      // Label sets that vanished (a topic drained) must not keep their last value.
      this.reset();
      for (const r of rows) this.set(r.labels, r.value);
    },
  });
}
