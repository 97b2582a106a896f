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
 * budget may only go down, so converting a file shrinks the list — a ratchet.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const API_PATH = /['"`]\/api\//;
const PREPARE = /\.prepare\(/;

function testSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return path === join(root, 'test/lint') ? [] : testSources(path);
    return /\.tsx?$/.test(entry.name) ? [relative(root, path)] : [];
  });
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
});
