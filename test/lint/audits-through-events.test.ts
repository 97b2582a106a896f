import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The audit log is one of the after-effects (STYLE.md, One way per concern): a command emits a
 * typed domain event inside its write and the `in_transaction` audit subscriber in
 * `server/events/subscribers.ts` writes the entry. Nothing else under server/ calls `recordAudit(`
 * but the audit module itself.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Files still calling `recordAudit(` directly. The list only shrinks: a file converted must leave
 * it (the test says so), and no file may join it. It is empty: even a chart-type decision, whose
 * entry its undo reads back, emits its event, since every process's bus has the audit subscribers
 * (`registerSubscribers` and `auditedEvents` both register them).
 */
const NOT_YET_CONVERTED: string[] = [];

const MAY_CALL = (path: string) => path.startsWith('server/audit/') || path === 'server/events/subscribers.ts';

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.test.ts') ? [relative(ROOT, join(ROOT, path)).split('\\').join('/')] : [];
  });
}

describe('audits through events', () => {
  it('no file under server/ but the audit module and the subscribers calls recordAudit( (the not-yet-converted list aside, which only shrinks)', () => {
    const callers = sourceFiles('server')
      .filter((path) => !MAY_CALL(path))
      .filter((path) => /\brecordAudit\(/.test(readFileSync(join(ROOT, path), 'utf8')))
      .sort();
    expect(callers).toEqual(NOT_YET_CONVERTED);
  });
});
