/**
 * Scopes of API keys and OAuth tokens, space-separated as in OAuth (RFC 6749 §3.3):
 *   read:<model>              list and read records of <model>
 *   write:<model>             create, update and delete records of <model>
 *   method:<model>.<method>   call the public business method <method> (action_* or button_*) on a record
 *   admin:integrations        manage the ERP-side integration settings (docs/integrations.md)
 * Models are named explicitly (no wildcards). Some models can never be in a scope: the REST layer runs
 * as the ERP service account, so users, groups, companies' access data and technical `ir.*` models
 * stay out of reach whatever a key says.
 */
import { AppError } from '@platform/kernel';

export type Operation = 'read' | 'write';

const MODEL_RE = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/;
const METHOD_RE = /^(action|button)_[a-z0-9_]+$/;
const BLOCKED_MODEL_RE = /^(ir\.|res\.users|res\.groups|base\.|bus\.|mail\.|auth_|res\.config)/;

export const isModelName = (m: string): boolean => MODEL_RE.test(m);
export const isBusinessMethod = (m: string): boolean => METHOD_RE.test(m);
export const isBlockedModel = (m: string): boolean => BLOCKED_MODEL_RE.test(m);

/** Why `token` is not a valid scope, or undefined when it is. */
export const ADMIN_INTEGRATIONS_SCOPE = 'admin:integrations';

export function scopeProblem(token: string): string | undefined {
  if (token === ADMIN_INTEGRATIONS_SCOPE) return undefined;
  const m = /^(read|write):(.+)$/.exec(token);
  if (m) {
    if (!isModelName(m[2]!)) return `"${m[2]}" is not a model name`;
    if (isBlockedModel(m[2]!)) return `model ${m[2]} cannot be exposed through the REST API`;
    return undefined;
  }
  const c = /^method:(.+)\.([^.]+)$/.exec(token);
  if (c) {
    if (!isModelName(c[1]!)) return `"${c[1]}" is not a model name`;
    if (isBlockedModel(c[1]!)) return `model ${c[1]} cannot be exposed through the REST API`;
    if (!isBusinessMethod(c[2]!)) return `only action_* and button_* methods can be granted, not "${c[2]}"`;
    return undefined;
  }
  return `"${token}" is not read:<model>, write:<model>, method:<model>.<method> or admin:integrations`;
}

/** Parses a space- or comma-separated scope list; throws VALIDATION_FAILED naming each bad token. */
export function parseScopes(input: string | string[]): string[] {
  const tokens = (Array.isArray(input) ? input.join(' ') : input).split(/[\s,]+/).filter(Boolean);
  const issues = tokens.flatMap((t) => {
    const why = scopeProblem(t);
    return why ? [{ field: 'scope', rule: 'format', message: why }] : [];
  });
  if (issues.length)
    throw new AppError('VALIDATION_FAILED', issues.map((i) => i.message).join('; '), { fieldIssues: issues });
  if (!tokens.length)
    throw new AppError('VALIDATION_FAILED', 'At least one scope is required', {
      fieldIssues: [{ field: 'scope', rule: 'required', message: 'required' }],
    });
  return [...new Set(tokens)].sort();
}

export const formatScopes = (scopes: readonly string[]): string => [...scopes].join(' ');

export function requiredScope(model: string, op: Operation | { method: string }): string {
  return typeof op === 'string' ? `${op}:${model}` : `method:${model}.${op.method}`;
}

export function allows(scopes: readonly string[], model: string, op: Operation | { method: string }): boolean {
  return !isBlockedModel(model) && scopes.includes(requiredScope(model, op));
}
