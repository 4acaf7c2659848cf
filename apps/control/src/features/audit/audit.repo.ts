/** SQL of the audit log (append-only: the table refuses UPDATE and DELETE). */
import type { Queryable } from '@platform/db';

export interface AuditRow {
  id: number;
  at: Date;
  actor_kind: string;
  actor_id: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  ip: string | null;
  detail: Record<string, unknown>;
}

export interface AuditInsert {
  tenantId: string;
  actorKind: string;
  actorId: string | null;
  action: string;
  targetType: string | null;
  targetId: string | null;
  ip: string | null;
  detail: Record<string, unknown>;
}

export async function insertAudit(q: Queryable, e: AuditInsert): Promise<void> {
  await q.query(
    `INSERT INTO audit_log (tenant_id, actor_kind, actor_id, action, target_type, target_id, ip, detail)
     VALUES ($1::uuid, $2, $3, $4, $5, $6, $7::inet, $8::jsonb)`,
    [e.tenantId, e.actorKind, e.actorId, e.action, e.targetType, e.targetId, e.ip, JSON.stringify(e.detail)],
  );
}

export interface AuditFilter {
  action?: string;
  /** Only the entries about one record (e.g. `{type: 'job', id}`: a job's history). */
  target?: { type: string; id: string };
  actor?: string;
  from?: Date;
  to?: Date;
  limit: number;
  offset: number;
}

export async function listAudit(
  q: Queryable,
  tenantId: string,
  f: AuditFilter,
): Promise<{ rows: AuditRow[]; total: number }> {
  const where = ['tenant_id = $1::uuid'];
  const args: unknown[] = [tenantId];
  const add = (sql: string, v: unknown) => {
    args.push(v);
    where.push(sql.replace('?', `$${args.length}`));
  };
  if (f.action) add('action = ?', f.action);
  if (f.target) {
    add('target_type = ?', f.target.type);
    add('target_id = ?', f.target.id);
  }
  if (f.actor) add('actor_id = ?', f.actor);
  if (f.from) add('at >= ?', f.from);
  if (f.to) add('at < ?', f.to);
  const w = where.join(' AND ');
  const total =
    (await q.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_log WHERE ${w}`, args)).rows[0]?.n ?? 0;
  const rows = await q.query<AuditRow>(
    `SELECT id, at, actor_kind, actor_id, action, target_type, target_id, host(ip) AS ip, detail FROM audit_log
      WHERE ${w} ORDER BY at DESC, id DESC LIMIT ${f.limit} OFFSET ${f.offset}`,
    args,
  );
  return { rows: rows.rows, total };
}

/** The actions the tenant's log holds, for the screen's filter. */
export async function distinctActions(q: Queryable, tenantId: string): Promise<string[]> {
  const r = await q.query<{ action: string }>(
    'SELECT DISTINCT action FROM audit_log WHERE tenant_id = $1::uuid ORDER BY action LIMIT 500',
    [tenantId],
  );
  return r.rows.map((x) => x.action);
}
