/** How the port's options travel as Odoo keyword arguments: shared by every adapter that speaks Odoo's RPC. */
import type { SearchOptions } from './erp.port.js';

type Ctx = Record<string, unknown> | undefined;

/** `offset`, `limit`, `order` and `context` of a search, each only when given (Odoo's defaults apply otherwise). */
export function searchKwargs(opts: SearchOptions): Record<string, unknown> {
  const kw: Record<string, unknown> = {};
  if (opts.offset !== undefined) kw.offset = opts.offset;
  if (opts.limit !== undefined) kw.limit = opts.limit;
  if (opts.order !== undefined) kw.order = opts.order;
  return withContext(kw, opts.context);
}

/** `kw` with the call's context, when there is one. */
export function withContext(kw: Record<string, unknown>, context: Ctx): Record<string, unknown> {
  if (context !== undefined) kw.context = context;
  return kw;
}
