/**
 * Builds a WHERE clause from optional filters: each condition applies only when its value is
 * given. Values are always bound as named parameters, never spliced into the SQL.
 */
export function whereClause(conditions: { sql: string; param: string; value: string | number | undefined }[]): {
  sql: string;
  params: Record<string, string | number>;
} {
  const parts: string[] = [];
  const params: Record<string, string | number> = {};
  for (const condition of conditions) {
    if (condition.value === undefined || condition.value === '') continue;
    parts.push(condition.sql);
    params[condition.param] = condition.value;
  }
  return { sql: parts.length ? `WHERE ${parts.join(' AND ')}` : '', params };
}

/** A LIKE pattern matching `text` anywhere, with LIKE's wildcards escaped (use ESCAPE '\\'). */
export function containsPattern(text: string | undefined): string | undefined {
  return text === undefined || text === '' ? undefined : `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}
