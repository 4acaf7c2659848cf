/** The ERP host's /metrics: its requests (JSON-RPC, REST API, webhooks) and the process. */
import { createMetricsRegistry, type MetricsOptions } from '@platform/http-kit';

export function composeErpMetrics(config: { METRICS_TOKEN?: string | undefined }): MetricsOptions {
  return { registry: createMetricsRegistry('erp'), service: 'erp', token: config.METRICS_TOKEN };
}
