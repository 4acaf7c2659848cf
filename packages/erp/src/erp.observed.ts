/**
 * A decorator of the Erp port that reports every finished call (metrics: ERP latency and errors per
 * tenant). It sees what callers see: a port call's whole time (its JSON-RPC round trips included),
 * and the AppError code of a failure, including the adapter's own (a refused login answered `false`).
 */
import { AppError } from '@platform/kernel';

import type { Erp } from './erp.port.js';

/** One finished call: which port method, on which model, how long, and how it ended. Never the arguments. */
export interface ErpCallEvent {
  operation: keyof Erp;
  model?: string | undefined;
  seconds: number;
  /** The AppError code when the call failed (ERP_UNAVAILABLE, ERP_REJECTED, ERP_AUTH_FAILED...). */
  errorCode?: string | undefined;
}

export type ErpCallObserver = (e: ErpCallEvent) => void;

const OPERATIONS = [
  'version',
  'authenticate',
  'create',
  'write',
  'read',
  'search',
  'searchRead',
  'searchCount',
  'unlink',
  'fieldsGet',
  'call',
] as const satisfies readonly (keyof Erp)[];

export function observeErp(erp: Erp, onCall: ErpCallObserver): Erp {
  const tell = (e: ErpCallEvent) => {
    try {
      onCall(e);
    } catch {
      // Metrics are best effort: never let an observer fail the ERP call.
    }
  };
  const wrap = (operation: keyof Erp) =>
    async function (...args: unknown[]) {
      const model = operation === 'version' || operation === 'authenticate' ? undefined : (args[0] as string);
      const started = performance.now();
      const seconds = () => (performance.now() - started) / 1000;
      try {
        const r = await (erp[operation] as (...a: unknown[]) => Promise<unknown>)(...args);
        tell({ operation, model, seconds: seconds() });
        return r;
      } catch (e) {
        tell({ operation, model, seconds: seconds(), errorCode: e instanceof AppError ? e.code : 'INTERNAL' });
        throw e;
      }
    };
  return Object.fromEntries(OPERATIONS.map((op) => [op, wrap(op)])) as unknown as Erp;
}
