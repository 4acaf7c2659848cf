/**
 * Odoo exceptions as they appear on the wire: `data.name` is the Python `module.Class` of the
 * exception and `data.message` its text. The JSON-RPC route turns an OdooError into the envelope.
 */
export class OdooError extends Error {
  constructor(
    /** Python qualified name, e.g. `odoo.exceptions.UserError` or `builtins.ValueError`. */
    readonly odooName: string,
    message: string,
  ) {
    super(message);
    this.name = 'OdooError';
  }
}

export const valueError = (msg: string) => new OdooError('builtins.ValueError', msg);
export const userError = (msg: string) => new OdooError('odoo.exceptions.UserError', msg);
export const validationError = (msg: string) => new OdooError('odoo.exceptions.ValidationError', msg);
export const accessError = (msg: string) => new OdooError('odoo.exceptions.AccessError', msg);
export const accessDenied = () => new OdooError('odoo.exceptions.AccessDenied', 'Access Denied');
export const missingError = (model: string, ids: number[], uid: number) =>
  new OdooError(
    'odoo.exceptions.MissingError',
    `Record does not exist or has been deleted.\n(Record: ${model}(${ids.join(', ')},), User: ${uid})`,
  );

const MANDATORY =
  'The operation cannot be completed:\n- Create/update: a mandatory field is not set.\n' +
  '- Delete: another model requires the record being deleted. If possible, archive it instead.';

/** Odoo's `service.model.check` turns IntegrityErrors into ValidationErrors; we do the same. */
export function fromPgError(e: unknown): OdooError | undefined {
  const code = (e as { code?: unknown } | null)?.code;
  const message = e instanceof Error ? e.message : String(e);
  // 23001: a RESTRICT foreign key (ondelete='restrict') refusing a delete, as 23503 for NO ACTION.
  if (code === '23502' || code === '23503' || code === '23001') return validationError(MANDATORY);
  // 22003: a number out of the column's range (psycopg2's DataError), a bad value for the caller.
  if (code === '22003') return valueError(message);
  if (code === '23505' || code === '23514') return validationError(message);
  return undefined;
}

export function mandatoryFieldError(modelDescription: string, model: string, fieldString: string, field: string) {
  return validationError(`${MANDATORY}\n\nModel: ${modelDescription} (${model}), Field: ${fieldString} (${field})`);
}
