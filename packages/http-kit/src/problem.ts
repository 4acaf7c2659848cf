/** RFC 9457 problem details built from AppErrors. Internals (stack, cause) never leave the process. */
import { AppError, type ErrorCode } from '@platform/kernel';

import { ERROR_STATUS, problemType } from './error-status.map.js';

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ErrorCode;
  instance?: string;
  request_id?: string;
  errors?: { field: string; rule: string; message: string }[];
  [extension: string]: unknown;
}

export function toProblem(err: AppError, ctx: { instance?: string; requestId?: string } = {}): Problem {
  const { status, title } = ERROR_STATUS[err.code];
  const p: Problem = { type: problemType(err.code), title, status, detail: err.message, code: err.code };
  if (ctx.instance) p.instance = ctx.instance;
  if (ctx.requestId) p.request_id = ctx.requestId;
  if (err.fieldIssues?.length) p.errors = err.fieldIssues;
  if (err.details) for (const [k, v] of Object.entries(err.details)) if (!(k in p)) p[k] = v;
  return p;
}

/**
 * The OpenAPI schema of `Problem` above, for each host's `components.schemas.Problem`; `codes`, when
 * given, lists the codes the host may answer.
 */
export function problemOpenApiSchema(codes?: readonly string[]) {
  return {
    type: 'object',
    description: 'RFC 9457 problem details',
    required: ['type', 'title', 'status', 'code'],
    properties: {
      type: { type: 'string' },
      title: { type: 'string' },
      status: { type: 'integer' },
      detail: { type: 'string' },
      code: codes ? { type: 'string', enum: [...codes] } : { type: 'string' },
      instance: { type: 'string' },
      request_id: { type: 'string' },
      errors: {
        type: 'array',
        items: {
          type: 'object',
          properties: { field: { type: 'string' }, rule: { type: 'string' }, message: { type: 'string' } },
        },
      },
    },
  };
}
