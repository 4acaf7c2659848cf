/** SQL of the tenants' pipeline rules (table crm_pipeline_rules, migration 0175). */
import type { Queryable } from '@platform/db';

export type PipelineEvent = 'quote_sent' | 'quote_accepted';

/** The tenant's rules: event → stage name (null: do not move); an event without a row is absent. */
export async function rulesOf(q: Queryable, tenantId: string): Promise<Partial<Record<PipelineEvent, string | null>>> {
  const r = await q.query<{ event: PipelineEvent; stage_name: string | null }>(
    'SELECT event, stage_name FROM crm_pipeline_rules WHERE tenant_id = $1',
    [tenantId],
  );
  return Object.fromEntries(r.rows.map((row) => [row.event, row.stage_name]));
}

export async function setRule(
  q: Queryable,
  tenantId: string,
  event: PipelineEvent,
  stage: string | null,
): Promise<void> {
  await q.query(
    `INSERT INTO crm_pipeline_rules (tenant_id, event, stage_name) VALUES ($1, $2, $3)
     ON CONFLICT (tenant_id, event) DO UPDATE SET stage_name = EXCLUDED.stage_name, updated_at = now()`,
    [tenantId, event, stage],
  );
}

export async function resetRule(q: Queryable, tenantId: string, event: PipelineEvent): Promise<void> {
  await q.query('DELETE FROM crm_pipeline_rules WHERE tenant_id = $1 AND event = $2', [tenantId, event]);
}
