/** Renders a named template for a brand; bad data is a VALIDATION_FAILED naming the field. */
import { parseOrThrow } from '@platform/http-kit';
import { AppError } from '@platform/kernel';

import type { Brand } from './brand.js';
import { isTemplateName, type Rendered, TEMPLATE_NAMES, TEMPLATES } from './templates.js';

export function renderTemplate(name: string, brand: Brand, data: unknown): Rendered {
  if (!isTemplateName(name))
    throw new AppError(
      'EMAIL_TEMPLATE_UNKNOWN',
      `Unknown email template "${name}"; known: ${TEMPLATE_NAMES.join(', ')}.`,
    );
  const t = TEMPLATES[name] as { schema: import('zod').ZodType; render(b: Brand, d: unknown): Rendered };
  return t.render(brand, parseOrThrow(t.schema, data));
}

export function sampleData(name: string): unknown {
  if (!isTemplateName(name))
    throw new AppError(
      'EMAIL_TEMPLATE_UNKNOWN',
      `Unknown email template "${name}"; known: ${TEMPLATE_NAMES.join(', ')}.`,
    );
  return TEMPLATES[name].sample;
}
