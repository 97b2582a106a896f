import type { z } from 'zod';
import { inWords } from '../../shared/issue-words';
import { DomainError } from '../domain-error';

/**
 * Parses untrusted input (body, query, params) with a shared schema; on failure a 400 that
 * names the first offending field, by its path and in words, e.g. `body.budget_cost: Budget
 * cost must be more than 0` (`field`: `body.budget_cost`). Path params are ids: a path whose
 * id is malformed (`/api/items/0x10`) names no resource, so that is a 404.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, where: 'body' | 'query' | 'params'): z.infer<S> {
  const result = schema.safeParse(input ?? {}, { error: inWords() });
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = issue?.path.map(String).join('.') ?? '';
  const field = path ? `${where}.${path}` : where;
  throw new DomainError(where === 'params' ? 'not_found' : 'bad_request', `${field}: ${issue?.message ?? 'invalid'}`, field);
}
