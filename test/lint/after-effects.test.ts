import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * After-effects have one way (STYLE.md, One way per concern): a command emits domain events in its
 * transaction and the subscribers registered in `server/events/subscribers.ts` publish, audit and
 * start the feedback loop. A second way creeps in as a route that publishes, or review reaching
 * into reflection itself.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.test.ts') ? [relative(ROOT, join(ROOT, path))] : [];
  });
}

const offendingLines = (paths: readonly string[], pattern: RegExp): string[] =>
  paths.flatMap((path) =>
    readFileSync(join(ROOT, path), 'utf8')
      .split('\n')
      .flatMap((line, index) => (pattern.test(line) ? [`${path}:${index + 1}: ${line.trim()}`] : [])),
  );

/** Route files whose publish and audit calls have not moved onto domain events yet. */

describe('after-effects', () => {
  it('are nobody’s business in a route: no route file publishes to sockets or writes the audit log', () => {
    const routes = sourceFiles('server').filter((path) => path.endsWith('-routes.ts'));
    expect(routes.length).toBeGreaterThan(10);
    expect(offendingLines(routes, /\.publish(?:To)?\(|\brecordAudit\(/)).toEqual([]);
  });

  it('review imports nothing of reflection: a settled item reaches the feedback loop through item.decided', () => {
    expect(offendingLines(sourceFiles('server/review'), /from\s+['"][./]*(?:server\/)?reflection\//)).toEqual([]);
  });
});
