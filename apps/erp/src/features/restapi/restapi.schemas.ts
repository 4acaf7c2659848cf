/** Validation of REST API inputs: list query, record values, method calls. */
import type { Domain } from '@platform/erp';
import { assertCleanJson, parseOrThrow } from '@platform/http-kit';
import { AppError } from '@platform/kernel';
import { z } from 'zod';

const IDENT = /^[a-z_][a-z0-9_]*$/;
const ORDER_RE = /^[a-z_][a-z0-9_]*( +(asc|desc))?( *, *[a-z_][a-z0-9_]*( +(asc|desc))?)*$/i;

const bad = (field: string, rule: string, message: string) =>
  new AppError('VALIDATION_FAILED', `${field}: ${message}`, { fieldIssues: [{ field, rule, message }] });

/** `domain` is an Odoo domain as JSON: `[["is_company","=",true]]`, with `&`, `|`, `!` prefixes. */
export function parseDomain(raw: string | undefined): Domain {
  if (raw === undefined || raw === '') return [];
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    throw bad('domain', 'json', 'must be a JSON array such as [["name","ilike","acme"]]');
  }
  if (!Array.isArray(v)) throw bad('domain', 'type', 'must be a JSON array');
  assertCleanJson(v, 'domain');
  for (const item of v) {
    if (item === '&' || item === '|' || item === '!') continue;
    if (!Array.isArray(item) || item.length !== 3 || typeof item[0] !== 'string' || typeof item[1] !== 'string') {
      throw bad('domain', 'format', 'each item is "&", "|", "!" or [field, operator, value]');
    }
  }
  return v as Domain;
}

const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

export const listQuerySchema = z.object({
  domain: z.string().max(10_000).optional(),
  fields: z.string().max(2_000).optional(),
  limit: int(1, 1_000_000).optional(),
  offset: int(0, 100_000_000).optional(),
  order: z.string().max(200).regex(ORDER_RE, 'must be like "name asc, id desc"').optional(),
});

export const readQuerySchema = z.object({ fields: z.string().max(2_000).optional() });

export function parseFields(raw: string | undefined): string[] | undefined {
  if (raw === undefined || raw === '') return undefined;
  const fields = raw
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  const wrong = fields.find((f) => !IDENT.test(f));
  if (wrong !== undefined) throw bad('fields', 'format', `"${wrong}" is not a field name`);
  return fields;
}

export function parseId(raw: string): number {
  if (!/^[1-9][0-9]{0,9}$/.test(raw) || Number(raw) > 2_147_483_647)
    throw bad('id', 'format', 'must be a positive integer record id');
  return Number(raw);
}

/** Record values: a JSON object of field names; the ERP validates the values themselves. */
export function parseValues(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw bad('(body)', 'type', 'must be a JSON object of field values');
  const wrong = Object.keys(body).find((k) => !IDENT.test(k) || k === 'id');
  if (wrong !== undefined) throw bad(wrong, 'unknown_field', 'is not a writable field name');
  return body as Record<string, unknown>;
}

const methodCallSchema = z
  .object({
    args: z.array(z.unknown()).max(20).default([]),
    kwargs: z.record(z.string().regex(IDENT), z.unknown()).default({}),
  })
  .strict();

/** `{args?, kwargs?}`; a `context` kwarg is refused: the REST layer sets the context itself. */
export function parseMethodCall(body: unknown): { args: unknown[]; kwargs: Record<string, unknown> } {
  const call = parseOrThrow(methodCallSchema, body ?? {});
  if ('context' in call.kwargs) throw bad('kwargs.context', 'unknown_field', 'is set by the server');
  return call;
}
