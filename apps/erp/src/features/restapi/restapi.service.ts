/**
 * REST operations on ERP models through the `Erp` port, on behalf of an acting user: every call
 * carries `allowed_company_ids` of that user, and a record the user's companies cannot see is a 404
 * (not a 403), so ids of other companies cannot be probed. Odoo's exceptions become REST codes.
 */
import type { Domain, Erp, ErpRecord } from '@platform/erp';
import { AppError } from '@platform/kernel';

import { type ActingUser, ActingUsers } from './acting-users.js';

export interface Page {
  model: string;
  total: number;
  offset: number;
  limit: number;
  records: ErpRecord[];
}

export interface ListQuery {
  domain: Domain;
  fields: string[] | undefined;
  limit: number | undefined;
  offset: number | undefined;
  order: string | undefined;
}

export interface PageSizes {
  pageSize: number;
  maxPageSize: number;
}

export class RestApiService {
  private readonly models = new Map<string, { until: number; exists: Promise<boolean> }>();

  constructor(
    private readonly erp: Erp,
    private readonly sizes: PageSizes,
    private readonly now: () => number = Date.now,
  ) {}

  /** MODEL_NOT_FOUND unless the ERP has the model (remembered for a minute). */
  async ensureModel(model: string): Promise<void> {
    let hit = this.models.get(model);
    if (!hit || hit.until <= this.now()) {
      const exists = this.erp.fieldsGet(model, ['type']).then(
        () => true,
        (e: unknown) => (isUnknownModel(e) ? false : Promise.reject(e)),
      );
      hit = { until: this.now() + 60_000, exists };
      this.models.set(model, hit);
      exists.catch(() => this.models.delete(model));
    }
    if (!(await hit.exists))
      throw new AppError('MODEL_NOT_FOUND', `The ERP has no model ${model}`, { details: { model } });
  }

  async list(user: ActingUser, model: string, q: ListQuery): Promise<Page> {
    const limit = Math.min(q.limit ?? this.sizes.pageSize, this.sizes.maxPageSize);
    const offset = q.offset ?? 0;
    const context = ActingUsers.context(user);
    return mapErrors(async () => {
      const [records, total] = await Promise.all([
        this.erp.searchRead(model, q.domain, { fields: q.fields, limit, offset, order: q.order, context }),
        this.erp.searchCount(model, q.domain, context),
      ]);
      return { model, total, offset, limit, records };
    });
  }

  async get(user: ActingUser, model: string, id: number, fields?: string[]): Promise<ErpRecord> {
    return mapErrors(async () => {
      // active_test off: like Odoo's read(), an archived record is still found by its id.
      const context = { ...ActingUsers.context(user), active_test: false };
      const [row] = await this.erp.searchRead(model, [['id', '=', id]], { fields, limit: 1, context });
      if (!row) throw notFound(model, id);
      return row;
    });
  }

  async create(user: ActingUser, model: string, values: Record<string, unknown>): Promise<number> {
    return mapErrors(() => this.erp.create(model, values, ActingUsers.context(user)));
  }

  async update(user: ActingUser, model: string, id: number, values: Record<string, unknown>): Promise<void> {
    await this.callOnRecord(user, model, id, 'write', [values], {});
  }

  async remove(user: ActingUser, model: string, id: number): Promise<void> {
    await this.callOnRecord(user, model, id, 'unlink', [], {});
  }

  /** A public business method on one record; Odoo's return value as is (null for None). */
  async callMethod(
    user: ActingUser,
    model: string,
    id: number,
    method: string,
    args: unknown[],
    kwargs: Record<string, unknown>,
  ): Promise<unknown> {
    return this.callOnRecord(user, model, id, method, args, kwargs);
  }

  /** write/unlink/methods go through `call` so they carry the acting user's context too. */
  private async callOnRecord(
    user: ActingUser,
    model: string,
    id: number,
    method: string,
    args: unknown[],
    kwargs: Record<string, unknown>,
  ): Promise<unknown> {
    const context = ActingUsers.context(user);
    return mapErrors(async () => {
      const visible = await this.erp.search(model, [['id', '=', id]], {
        limit: 1,
        context: { ...context, active_test: false },
      });
      if (!visible.includes(id)) throw notFound(model, id);
      return this.erp.call(model, method, [[id], ...args], { ...kwargs, context });
    });
  }
}

const notFound = (model: string, id: number) =>
  new AppError('RECORD_NOT_FOUND', `No ${model} record ${id}`, { details: { model, id } });

function erpName(e: unknown): string | undefined {
  return e instanceof AppError && e.code === 'ERP_REJECTED' && typeof e.details?.name === 'string'
    ? e.details.name
    : undefined;
}

const erpMessage = (e: unknown): string =>
  e instanceof AppError && typeof e.details?.message === 'string' ? e.details.message : 'The ERP refused the request';

/** Odoo 15's execute_kw on an unknown model: UserError "Object x doesn't exist". */
export function isUnknownModel(e: unknown): boolean {
  return erpName(e) === 'odoo.exceptions.UserError' && /^Object \S+ doesn't exist/.test(erpMessage(e));
}

async function mapErrors<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    const name = erpName(e);
    if (!name) throw e;
    const message = erpMessage(e);
    const details = { erp_error: name };
    if (isUnknownModel(e)) throw new AppError('MODEL_NOT_FOUND', message, { cause: e, details });
    if (name === 'builtins.AttributeError') throw new AppError('METHOD_NOT_FOUND', message, { cause: e, details });
    if (name === 'odoo.exceptions.MissingError') throw new AppError('RECORD_NOT_FOUND', message, { cause: e, details });
    if (name === 'odoo.exceptions.AccessError') throw new AppError('API_FORBIDDEN', message, { cause: e, details });
    if (
      /^(odoo\.exceptions\.(UserError|ValidationError|RedirectWarning)|builtins\.(ValueError|TypeError|KeyError))$/.test(
        name,
      )
    ) {
      throw new AppError('ERP_VALIDATION', message, { cause: e, details });
    }
    throw e;
  }
}
