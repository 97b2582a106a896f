import { parseCircular, parseDependencyTree } from 'dpdm';
import { describe, expect, it } from 'vitest';

/**
 * No module imports itself through others at run time. A cycle makes the order modules load in
 * decide what a module sees at start (an export read before its module has run is undefined),
 * and it blurs which of two modules owns what. Type-only imports are erased (`transform`), and a
 * dynamic `import()` is a deliberate break (lazy pages, worker entries), so neither counts.
 */
describe('the import graph', () => {
  it('has no runtime cycles in server, client, shared or db code', { timeout: 120_000 }, async () => {
    const tree = await parseDependencyTree(['server/**/*.ts', 'client/src/**/*.{ts,tsx}', 'shared/**/*.ts', 'db/**/*.ts'], {
      transform: true,
      skipDynamicImports: true,
      exclude: /node_modules|\.test\.tsx?$/,
      tsconfig: './tsconfig.json',
    });
    // The graph is read at all: a pattern that matched nothing would find no cycle either.
    expect(Object.keys(tree).length).toBeGreaterThan(500);
    expect(parseCircular(tree, true)).toEqual([]);
  });
});
