/** The metrics hook of the JSON-RPC client: a decorator that reports each finished call. */
import { AppError } from '@platform/kernel';

import type { OdooRpcClient } from './odoo.client.js';

/** One finished call, for observers: what was called and how it went, never the arguments. */
export interface RpcCallEvent {
  service: string;
  method: string;
  model?: string | undefined;
  modelMethod?: string | undefined;
  seconds: number;
  /** The AppError code when the call failed. */
  errorCode?: string | undefined;
}

/** The client with `onCall` told after each call; an observer's own failure never fails the call. */
export function observed(client: OdooRpcClient, onCall: (e: RpcCallEvent) => void): OdooRpcClient {
  const tell = (e: RpcCallEvent) => {
    try {
      onCall(e);
    } catch {
      // Metrics are best effort: the ERP call's outcome is what the caller needs.
    }
  };
  return {
    async call(service, method, args, label = {}) {
      const started = performance.now();
      const base = { service, method, model: label.model, modelMethod: label.method };
      try {
        const result = await client.call(service, method, args, label);
        tell({ ...base, seconds: (performance.now() - started) / 1000 });
        return result;
      } catch (e) {
        const errorCode = e instanceof AppError ? e.code : 'INTERNAL';
        tell({ ...base, seconds: (performance.now() - started) / 1000, errorCode });
        throw e;
      }
    },
  };
}
