import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RAW_ACCESS_BUDGETS, RAW_ACCESS_FILES, type RawAccess } from './raw-access-budgets';

/**
 * Tests reach the API through the descriptors of shared/api (`TestClient.call`, `send`,
 * `refusal`) and build rows with the factories of test/support: a path written by hand skips
 * the schemas both sides share, and a row written in SQL is a row no server code writes.
 * Files written before that rule keep a budget of such lines (raw-access-budgets.ts): a
 * budget may only go down, so converting a file shrinks the list — a ratchet. Writes have no
 * budget: a row a test needs comes from a factory (or a domain function), never from its own SQL.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const API_PATH = /['"`]\/api\//;
const PREPARE = /\.prepare\(/;
/** Where a statement is handed to SQLite; RegExp#exec too, but its argument is no SQL literal. */
const RUNS_SQL = /\.(?:prepare|exec)\s*\(/g;
/** SQL that writes: a statement, or one of several (`exec`), that opens with a write. */
const WRITES = /(?:^|;)\s*(?:INSERT|UPDATE|DELETE|REPLACE)\b/i;

function testSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return path === join(root, 'test/lint') ? [] : testSources(path);
    return /\.tsx?$/.test(entry.name) ? [relative(root, path)] : [];
  });
}

/**
 * The text of the string or template literal that opens at `start` (after blanks) — a template's
 * `${…}` kept as written — or null when the argument there is no literal (a variable, a RegExp's input).
 */
function literalAt(text: string, start: number): string | null {
  let at = start;
  while (/\s/.test(text.charAt(at))) at++;
  const quote = text.charAt(at);
  if (quote !== "'" && quote !== '"' && quote !== '`') return null;
  let literal = '';
  let depth = 0;
  for (at++; at < text.length; at++) {
    const char = text.charAt(at);
    if (char === '\\') {
      literal += text.charAt(++at);
    } else if (depth > 0) {
      depth += char === '{' ? 1 : char === '}' ? -1 : 0;
      literal += char;
    } else if (quote === '`' && char === '$' && text.charAt(at + 1) === '{') {
      depth = 1;
      literal += '${';
      at++;
    } else if (char === quote) {
      return literal;
    } else {
      literal += char;
    }
  }
  return literal;
}

/**
 * The `.prepare(` and `.exec(` calls of a source whose SQL writes, as `line: SQL`. The SQL is the
 * literal argument, read to its end, so a statement that opens on a later line than the call
 * (a template spread over several) is found as surely as one on the call's line.
 */
function sqlWrites(text: string): string[] {
  return [...text.matchAll(RUNS_SQL)].flatMap((call) => {
    const sql = literalAt(text, call.index + call[0].length);
    if (sql === null || !WRITES.test(sql)) return [];
    const line = text.slice(0, call.index).split('\n').length;
    return [`${line}: ${sql.replace(/\s+/g, ' ').trim().slice(0, 100)}`];
  });
}

/** Each test source's SQL writes (files with none left out). */
function writesByFile(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const file of testSources(join(root, 'test'))) {
    const writes = sqlWrites(readFileSync(join(root, file), 'utf8'));
    if (writes.length > 0) found.set(file, writes);
  }
  return found;
}

/** Lines of each test source that write an /api/ path or prepare a statement by hand (files with none left out). */
function rawAccessByFile(): Map<string, RawAccess> {
  const found = new Map<string, RawAccess>();
  for (const file of testSources(join(root, 'test'))) {
    const lines = readFileSync(join(root, file), 'utf8').split('\n');
    const count = { apiPaths: lines.filter((line) => API_PATH.test(line)).length, prepares: lines.filter((line) => PREPARE.test(line)).length };
    if (count.apiPaths + count.prepares > 0) found.set(file, count);
  }
  return found;
}

describe('tests through the contract', () => {
  const found = rawAccessByFile();

  it('writes no /api/ path or SQL statement by hand beyond a file’s budget', () => {
    const over = [...found]
      .filter(([file]) => !RAW_ACCESS_FILES[file])
      .filter(([file, count]) => {
        const budget = RAW_ACCESS_BUDGETS[file] ?? { apiPaths: 0, prepares: 0 };
        return count.apiPaths > budget.apiPaths || count.prepares > budget.prepares;
      })
      .map(([file, count]) => `${file}: ${JSON.stringify(count)} — call the endpoint's descriptor (TestClient.call/send/refusal) and build rows with test/support/factories.ts`);
    expect(over).toEqual([]);
  });

  it('keeps every budget at what its file still has, so a converted file cannot slide back', () => {
    const loose = Object.entries(RAW_ACCESS_BUDGETS)
      .filter(([file, budget]) => {
        const count = found.get(file) ?? { apiPaths: 0, prepares: 0 };
        return count.apiPaths < budget.apiPaths || count.prepares < budget.prepares;
      })
      .map(([file]) => `'${file}': ${JSON.stringify(found.get(file) ?? 'remove the entry')}`);
    expect(loose).toEqual([]);
  });

  it('exempts only files that exist and write raw paths or statements', () => {
    expect(Object.keys(RAW_ACCESS_FILES).filter((file) => !found.has(file))).toEqual([]);
  });

  it('writes no row in SQL outside the factories and the exempt files: none, whatever a file’s read budget', () => {
    const writes = [...writesByFile()]
      .filter(([file]) => !RAW_ACCESS_FILES[file])
      .flatMap(([file, lines]) => lines.map((line) => `${file}:${line} — build the row with a factory of test/support/factories.ts or a domain function`));
    expect(writes).toEqual([]);
  });

  it('finds a write whether its SQL opens on the call’s line or below it, and none in a read', () => {
    expect(sqlWrites("db.prepare('UPDATE runs SET owner_pid = ? WHERE id = ?').run(pid, id);")).toEqual(['1: UPDATE runs SET owner_pid = ? WHERE id = ?']);
    expect(sqlWrites('const n = 1;\ndb()\n  .prepare(\n    `INSERT INTO leases (item_id, reviewer_id)\n     VALUES (?, ?)`,\n  )\n  .run(item, reviewer);')).toEqual([
      '3: INSERT INTO leases (item_id, reviewer_id) VALUES (?, ?)',
    ]);
    expect(sqlWrites("db().exec(\"DELETE FROM leases; UPDATE hqa_items SET status = 'rejected'\");")).toHaveLength(1);
    expect(sqlWrites("db().exec('SELECT 1; DELETE FROM leases');")).toHaveLength(1);
    expect(sqlWrites('db.prepare(`UPDATE sessions SET ${column} = ? WHERE user_id = ?`).run(at, id);')).toHaveLength(1);
    expect(sqlWrites("db.prepare('INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)').run(k, v);")).toHaveLength(1);
    expect(
      sqlWrites(
        [
          "db.prepare('SELECT id FROM hqa_items WHERE status = ?').all('accepted');",
          "db()\n  .prepare(\n    `SELECT replace(text, 'a', 'b') AS updated FROM proposals`,\n  )\n  .all();",
          "const match = /UPDATE (\\w+)/.exec(line);",
          'const rows = db.prepare(sql).all();',
          "db.exec('CREATE TABLE IF NOT EXISTS filler (id INTEGER PRIMARY KEY, text TEXT)');",
        ].join('\n'),
      ),
    ).toEqual([]);
  });
});
