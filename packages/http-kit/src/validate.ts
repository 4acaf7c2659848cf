/** zod validation that reports every bad field with its rule, for problem bodies. */
import { AppError, type FieldIssue } from '@platform/kernel';
import type { z } from 'zod';

function ruleOf(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? 'required' : 'type';
    case 'too_big':
      return issue.origin === 'array' ? 'max_items' : 'max_length';
    case 'too_small':
      return issue.origin === 'array' ? 'min_items' : 'min_length';
    case 'invalid_format':
      return 'format';
    case 'invalid_value':
      return 'enum';
    case 'unrecognized_keys':
      return 'unknown_field';
    case 'custom':
      return (issue.params?.rule as string | undefined) ?? 'invalid';
    default:
      return issue.code;
  }
}

export function zodIssuesToFields(issues: z.core.$ZodIssue[]): FieldIssue[] {
  const out: FieldIssue[] = [];
  for (const i of issues) {
    if (i.code === 'unrecognized_keys') {
      for (const k of i.keys)
        out.push({ field: [...i.path, k].join('.'), rule: 'unknown_field', message: 'Unknown field.' });
      continue;
    }
    out.push({ field: i.path.join('.') || '(body)', rule: ruleOf(i), message: i.message });
  }
  return out;
}

export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const ok = schema.safeParse(input);
  if (ok.success) return ok.data;
  // Only a failing body pays for reportInput (ruleOf tells `required` from `type` by the issue's input).
  const r = schema.safeParse(input, { reportInput: true });
  const fields = zodIssuesToFields(r.success ? ok.error.issues : r.error.issues);
  throw new AppError(
    'VALIDATION_FAILED',
    `The request has ${fields.length} invalid field(s): ${fields.map((f) => f.field).join(', ')}.`,
    {
      fieldIssues: fields,
    },
  );
}
