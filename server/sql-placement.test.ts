import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * SQL lives only in each domain's `*-queries.ts` (STYLE.md, Database): a file elsewhere that
 * prepares or executes SQL is the start of a second, unreviewed data layer.
 */

const SERVER = dirname(fileURLToPath(import.meta.url));

// `.prepare(` on anything; `.exec(` only on a database (RegExp#exec is everywhere and harmless);
// the statement caches of db/; and SQL text itself, which has no business outside a query module.
const RUNS_SQL = [
  /\.prepare\s*\(/,
  /\b\w*(?:db|Db|database|Database)\s*\.exec\s*\(/,
  /\b(?:statement|preparedOnce)\s*\(/,
  /\b(?:SELECT\s.+\sFROM|INSERT\s+(?:OR\s+\w+\s+)?INTO|DELETE\s+FROM|UPDATE\s+\w+\s+SET)\b/,
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

function offendingLines(text: string): string[] {
  return text.split('\n').flatMap((line, index) => (RUNS_SQL.some((pattern) => pattern.test(line)) ? [`${index + 1}: ${line.trim()}`] : []));
}

describe('SQL placement', () => {
  it('keeps SQL and .prepare(, db.exec(, statement( in server/ inside *-queries.ts files', () => {
    const offenders = sourceFiles(SERVER)
      .filter((path) => !path.endsWith('-queries.ts'))
      .map((path) => relative(SERVER, path))
      .flatMap((path) => offendingLines(readFileSync(join(SERVER, path), 'utf8')).map((line) => `server/${path}:${line}`));
    expect(offenders).toEqual([]);
  });

  it('finds what it forbids (so an empty result means something)', () => {
    expect(offendingLines("const rows = db\n  .prepare('SELECT 1')\n  .all();")).toHaveLength(1);
    expect(offendingLines("ctx.db.exec('DELETE FROM t');")).toHaveLength(1);
    expect(offendingLines("return statement(ctx.db, sql).all();")).toHaveLength(1);
    expect(offendingLines("const sql = `SELECT id FROM runs WHERE status = ?`;")).toHaveLength(1);
    expect(offendingLines("const sql = 'UPDATE runs SET status = ?';")).toHaveLength(1);
    expect(offendingLines('const match = /^a(b)$/.exec(text);\nconst m = QUESTION_FILE.exec(name);')).toEqual([]);
    expect(offendingLines('// Select the rows from the pool, then update the run.')).toEqual([]);
  });
});
