import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Tests run the CLI in-process (`runCli`, test/support/cli.ts): a spawned `tsx server/cli/main.ts`
 * costs seconds of Node and tsx start each, and the suite runs the CLI about a hundred times. A
 * test may start the CLI as its own process only where being another process is the point, and
 * says so here.
 */
const OWN_PROCESS: Record<string, string> = {
  'test/support/cli.ts': 'runCliProcess, for the cases below',
  'test/integration/cli-user.test.ts': 'hqa user add reads the password from stdin',
  'test/integration/run-beside-import.test.ts': 'a CLI import is another process contending for the database',
  'test/integration/storage-unavailable.test.ts': 'a CLI on a full disk prints one line and exits',
  'test/integration/batch-generate.test.ts': 'a CLI killed mid-batch, its run taken over',
  'test/integration/batch-eval.test.ts': 'a CLI killed mid-batch, re-attached by a rerun',
};

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const testFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return /\.tsx?$/.test(entry.name) ? [relative(ROOT, path)] : [];
  });

/** A line that starts the CLI as a process: the entry file named beside a spawn, or `runCliProcess`. */
const startsCliProcess = (text: string): boolean => /server\/cli\/main\.ts/.test(text) || /\brunCliProcess\(/.test(text);

describe('the CLI in tests', () => {
  it('runs in-process except where being another process is the point', () => {
    const files = testFiles(join(ROOT, 'test')).filter((path) => path !== 'test/lint/cli-in-process.test.ts');
    expect(files.length).toBeGreaterThan(100);
    const spawning = files.filter((path) => startsCliProcess(readFileSync(join(ROOT, path), 'utf8')));
    expect(spawning.sort()).toEqual(Object.keys(OWN_PROCESS).sort());
  });

  it('finds what it forbids', () => {
    expect(startsCliProcess("spawn(resolve('node_modules/.bin/tsx'), [resolve('server/cli/main.ts'), 'import'])")).toBe(true);
    expect(startsCliProcess("await runCliProcess(['user', 'add'], { dbPath })")).toBe(true);
    expect(startsCliProcess("await runCli(['import', dir], { dbPath })")).toBe(false);
  });
});
