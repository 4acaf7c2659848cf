/** The office email API (packages/email) is guarded by the REST API's credentials and a scope. */
import type { AdminGuard } from '@platform/email';
import { AppError } from '@platform/kernel';

import type { RestAuth } from '../restapi/restapi.auth.js';

export function scopeGuard(auth: RestAuth, scope: string): AdminGuard {
  return async (req, reply) => {
    const p = await auth.authenticate(req, reply);
    if (!p.scopes.includes(scope)) throw new AppError('API_FORBIDDEN', `This credential lacks the scope ${scope}.`);
  };
}
