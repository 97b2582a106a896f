import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const clientSrc = join(root, 'client/src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

// The client reaches the server through the descriptors in shared/api (call, endpointUrl): a
// path written by hand would bypass the schemas both sides share.
describe('client API paths', () => {
  it('no client source writes an /api/ path by hand', () => {
    const handWritten = sourceFiles(clientSrc).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line, index) => ({ line, at: `${relative(root, file)}:${index + 1}` }))
        .filter(({ line }) => /['"`]\/api\//.test(line))
        .map(({ at }) => at),
    );
    expect(handWritten).toEqual([]);
  });
});
