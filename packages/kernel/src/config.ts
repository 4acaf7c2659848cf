/**
 * Shared helper for each app's config module: parse an env object with a zod schema and turn
 * the first failures into one message that names the variable and the rule.
 */
import { z } from 'zod';

export type EnvSource = Record<string, string | undefined>;

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export function readConfig<S extends z.ZodType>(schema: S, env: EnvSource): z.infer<S> {
  // Empty strings mean "unset": operators often leave `FOO=` in env files.
  const cleaned: EnvSource = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && v !== '') cleaned[k] = v;
  const r = schema.safeParse(cleaned);
  if (r.success) return r.data;
  const lines = r.error.issues.map((i) => `  ${i.path.join('.') || '(env)'}: ${i.message}`);
  throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
}
