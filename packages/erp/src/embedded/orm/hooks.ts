/** Model-specific behaviour the generic ORM does not know about (Odoo's model overrides). */
import { hashPassword } from '../auth/password.js';
import type { ModelDef } from '../registry.js';
import type { Env } from './env.js';
import { createRecord } from './write.js';

export async function prepareValues(
  env: Env,
  m: ModelDef,
  vals: Record<string, unknown>,
  isCreate: boolean,
): Promise<Record<string, unknown>> {
  const out = { ...vals };
  if (m.name === 'res.users') {
    if ('password' in out) {
      // Odoo ignores an empty password on write; a real one is stored hashed, never in clear.
      if (typeof out.password === 'string' && out.password) out.password = await hashPassword(out.password);
      else delete out.password;
    }
    if (isCreate && !out.partner_id) {
      const name = typeof out.name === 'string' ? out.name : typeof out.login === 'string' ? out.login : false;
      const email = out.email ?? (typeof out.login === 'string' && out.login.includes('@') ? out.login : false);
      out.partner_id = await createRecord(env, env.registry.get('res.partner'), { name, email });
    }
  }
  if (m.name === 'helpdesk.ticket' && isCreate && !out.stage_id) {
    // Enterprise puts a new ticket in the first stage (lowest sequence).
    const stages = env.registry.get('helpdesk.stage');
    const r = await env.q.query<{ id: number }>(
      `SELECT id FROM "${env.schema}"."${stages.table}" ORDER BY sequence, id LIMIT 1`,
    );
    if (r.rows[0]) out.stage_id = r.rows[0].id;
  }
  return out;
}

/** Called after users change, so cached credential checks do not outlive a password change. */
export function afterChange(env: Env, m: ModelDef): void {
  if (m.name === 'res.users') env.onUsersChanged?.();
}
