import type { z } from 'zod';
import { HttpError } from './http-error';

/**
 * Parses untrusted input (body, query, params) with a shared schema; on failure a 400 that
 * names the first offending field, e.g. `body.role: Invalid option`. Path params are ids: a
 * path whose id is malformed (`/api/items/0x10`) names no resource, so that is a 404.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, where: 'body' | 'query' | 'params'): z.infer<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = issue?.path.map(String).join('.') ?? '';
  const field = path ? `${where}.${path}` : where;
  throw new HttpError(where === 'params' ? 'not_found' : 'bad_request', `${field}: ${issue?.message ?? 'invalid'}`, field);
}
