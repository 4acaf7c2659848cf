/**
 * ir.model and ir.model.fields are read-only over RPC: the embedded ERP's models come from code
 * (Odoo would let an administrator add custom `x_` models and fields here).
 */
import { accessError } from '../../errors.js';
import type { ModelDef } from '../../registry.js';
import type { ModelHooks } from './hook-types.js';

const refuse = (_env: unknown, m: ModelDef) => {
  throw accessError(
    `You are not allowed to modify '${m.description}' (${m.name}) records: the embedded ERP's models and fields come from its code.`,
  );
};

export const introspectionHooks: Record<string, ModelHooks> = {
  'ir.model': { prepare: async (e, m) => refuse(e, m), beforeUnlink: async (e, m) => refuse(e, m) },
  'ir.model.fields': { prepare: async (e, m) => refuse(e, m), beforeUnlink: async (e, m) => refuse(e, m) },
};
