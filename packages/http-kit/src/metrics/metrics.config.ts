/**
 * The environment every service reads for its /metrics endpoint. Spread into each app's config
 * schema (config modules stay the only readers of process.env).
 */
import { z } from 'zod';

export const metricsEnvShape = {
  /**
   * Bearer token Prometheus sends (`Authorization: Bearer <token>`) to scrape /metrics from any
   * address. Unset: /metrics answers only direct loopback requests (docs/deployment.md "Monitoring").
   */
  METRICS_TOKEN: z.string().min(24, 'must be at least 24 characters (openssl rand -hex 24)').optional(),
};
