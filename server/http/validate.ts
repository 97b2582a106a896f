import type { z } from 'zod';
import { HttpError } from './http-error';

/**
 * Parses untrusted input (body, query, params) with a shared schema; on failure a 400 that
 * names the first offending field, e.g. `body.role: Invalid option`.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, where: 'body' | 'query' | 'params'): z.infer<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = issue?.path.map(String).join('.') ?? '';
  const field = path ? `${where}.${path}` : where;
  throw new HttpError('bad_request', `${field}: ${issue?.message ?? 'invalid'}`, field);
}
