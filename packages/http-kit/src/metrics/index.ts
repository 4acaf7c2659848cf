export { createMetricsRegistry } from './registry.js';
export { registerMetrics, routeLabel, UNMATCHED_ROUTE, type MetricsOptions } from './metrics.plugin.js';
export { metricsAccess, isLoopback, type MetricsAccess } from './metrics-access.js';
export { metricsEnvShape } from './metrics.config.js';
export { collectedGauge, type CollectedGaugeSpec } from './collected-gauge.js';
export { createErpCallMetrics, OTHER_TENANTS, type ErpCallOutcome, type ErpCallMetrics } from './erp-call.metrics.js';
export { buildMetricsApp, startMetricsServer } from './metrics-server.js';
