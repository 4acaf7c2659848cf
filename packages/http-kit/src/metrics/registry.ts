/** One Prometheus registry per service, so that one process running every service (`npm start`) keeps them apart. */
import { collectDefaultMetrics, Registry } from 'prom-client';

/**
 * A registry labelled with the service's name, with Node's process metrics (CPU, memory, event-loop
 * lag, GC, handles) already in it.
 */
export function createMetricsRegistry(service: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  return registry;
}
