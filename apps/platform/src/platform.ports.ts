/**
 * Every port `npm start` listens on, named by the variable that sets it: checked before anything
 * starts (a busy one stops start-up with a sentence naming it) and used to name a listen failure.
 */
import type { ControlConfig } from '@platform/app-control/control.config.js';
import type { DocsConfig } from '@platform/app-docs/docs.config.js';
import type { ErpConfig } from '@platform/app-erp/erp.config.js';
import type { FrontendConfig } from '@platform/app-frontend/frontend.config.js';
import type { LandingConfig } from '@platform/app-landing/config.js';
import type { WorkerConfig } from '@platform/app-worker/config.js';
import type { NamedPort } from '@platform/http-kit';

import { type PlatformConfig, wantsLocalProviders } from './platform.config.js';

export interface PlatformPorts {
  erp?: NamedPort;
  landing: NamedPort;
  control: NamedPort;
  frontend: NamedPort;
  docs?: NamedPort;
  workerMetrics?: NamedPort;
  localConsole?: NamedPort;
}

export function listeningPorts(c: {
  platform: PlatformConfig;
  landing: LandingConfig;
  erp: ErpConfig | undefined;
  worker: WorkerConfig;
  docs: DocsConfig;
  control: ControlConfig;
  frontend: FrontendConfig;
  extras: { docs?: boolean; workerMetrics?: boolean };
}): PlatformPorts {
  const want = wantsLocalProviders(c.platform);
  const named = (variable: string, host: string, port: number): NamedPort => ({ variable, host, port });
  return {
    ...(c.erp ? { erp: named('ERP_PORT', c.erp.ERP_HOST, c.erp.ERP_PORT) } : {}),
    landing: named('LANDING_PORT', c.landing.LANDING_HOST, c.landing.LANDING_PORT),
    control: named('CONTROL_PORT', c.control.CONTROL_HOST, c.control.CONTROL_PORT),
    frontend: named('FRONTEND_PORT', c.frontend.FRONTEND_HOST, c.frontend.FRONTEND_PORT),
    ...(c.extras.docs && c.docs.DOCS === 'on' ? { docs: named('DOCS_PORT', c.docs.DOCS_HOST, c.docs.DOCS_PORT) } : {}),
    ...(c.extras.workerMetrics
      ? { workerMetrics: named('WORKER_METRICS_PORT', c.worker.WORKER_METRICS_HOST, c.worker.WORKER_METRICS_PORT) }
      : {}),
    ...(want.sms || want.accounting || want.chat || want.mail || want.payments
      ? { localConsole: named('LOCAL_PROVIDERS_PORT', '127.0.0.1', c.platform.LOCAL_PROVIDERS_PORT) }
      : {}),
  };
}
