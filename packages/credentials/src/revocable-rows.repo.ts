/**
 * The reads and the revoke that a tenant's revocable credentials share (API keys, OAuth apps): rows
 * live until `revoked_at` is set, and stay listed afterwards. Each owner passes its own table.
 */
import type { Queryable } from '@platform/db';

export class RevocableRowsRepo<Row> {
  constructor(
    protected readonly db: Queryable,
    protected readonly tenantId: string,
    private readonly table: string,
    /** The columns every read and write returns. */
    protected readonly columns: string,
  ) {}

  async list(): Promise<Row[]> {
    const r = await this.db.query<Row & object>(
      `SELECT ${this.columns} FROM ${this.table} WHERE tenant_id = $1 ORDER BY id`,
      [this.tenantId],
    );
    return r.rows;
  }

  /** Revokes a live row; undefined when there is none of that id in the tenant (or it is revoked). */
  async revoke(id: number, q: Queryable = this.db): Promise<Row | undefined> {
    const r = await q.query<Row & object>(
      `UPDATE ${this.table} SET revoked_at = now() WHERE tenant_id = $1 AND id = $2 AND revoked_at IS NULL RETURNING ${this.columns}`,
      [this.tenantId, id],
    );
    return r.rows[0];
  }
}
