import type { z } from 'zod';

/** Which stored value a JSON column parse is reading, so a bad row can be found and fixed. */
export interface JsonColumnAt {
  table: string;
  column: string;
  id: number | string;
}

/** A JSON column that is not JSON, or not of its schema's shape. */
export class BadJsonColumnError extends Error {
  constructor(
    readonly at: JsonColumnAt,
    reason: string,
    options?: ErrorOptions,
  ) {
    super(`${at.table}.${at.column} of row ${String(at.id)}: ${reason}`, options);
    this.name = 'BadJsonColumnError';
  }
}

/**
 * Reads a JSON column through its zod schema: the one place stored JSON becomes a typed value.
 * Throws BadJsonColumnError naming the table, column and row id.
 */
export function parseJsonColumn<S extends z.ZodType>(schema: S, text: string, at: JsonColumnAt): z.output<S> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new BadJsonColumnError(at, `not JSON (${(error as Error).message})`, { cause: error });
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ');
    throw new BadJsonColumnError(at, `not of its shape (${issues})`, { cause: parsed.error });
  }
  return parsed.data;
}

/** parseJsonColumn for a nullable column: SQL NULL stays null. */
export function parseNullableJsonColumn<S extends z.ZodType>(schema: S, text: string | null, at: JsonColumnAt): z.output<S> | null {
  return text === null ? null : parseJsonColumn(schema, text, at);
}
