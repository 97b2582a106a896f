import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCircular, type Dependency, type DependencyTree } from 'dpdm';
import { transformWithOxc } from 'vite';
import { describe, expect, it } from 'vitest';

/**
 * No module imports itself through others at run time. A cycle makes the order modules load in
 * decide what a module sees at start (an export read before its module has run is undefined),
 * and it blurs which of two modules owns what. Type-only imports are erased, and a dynamic
 * `import()` is a deliberate break (lazy pages, worker entries), so neither counts.
 *
 * Each file is compiled as the build does (oxc, through Vite, which drops an import only types
 * use) and its static imports read from the output; dpdm finds the cycles. dpdm's own reading
 * (`transform: true`, a TypeScript program per file) took ~25 s of a loaded machine for the same
 * graph, and missed the imports of one file (shared/eval/chartbench-metrics.ts) that this reads.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SOURCES: [dir: string, ext: RegExp][] = [
  ['server', /\.ts$/],
  ['client/src', /\.tsx?$/],
  ['shared', /\.ts$/],
  ['db', /\.ts$/],
];
const SKIPPED = /node_modules|\.test\.tsx?$/;
/** dpdm's DependencyKind (its enum is not exported at run time): any kind but a dynamic import is followed. */
const STATIC = 'StaticImport' as Dependency['kind'];

/** The static imports and re-exports of compiled output: `import … from "x"`, `import "x"`, `export … from "x"`. */
const STATIC_IMPORT = /^\s*(?:import|export)\b[^'"`;]*?\bfrom\s*["']([^"']+)["']|^\s*import\s*["']([^"']+)["']/gm;

function staticImports(code: string): string[] {
  return [...code.matchAll(STATIC_IMPORT)].map((match) => match[1] ?? match[2] ?? '');
}

/** A request as the project resolves it (relative, or `@shared/…` by tsconfig `paths`); null for a package or a built-in. */
function resolveRequest(issuer: string, request: string): string | null {
  const base = request.startsWith('@shared/') ? join(ROOT, 'shared', request.slice('@shared/'.length)) : request.startsWith('.') ? resolve(dirname(join(ROOT, issuer)), request) : null;
  if (base === null) return null;
  const found = [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')].find((path) => existsSync(path) && statSync(path).isFile());
  return found === undefined ? null : relative(ROOT, found);
}

/** The runtime import graph from the source folders, following imports to any other module of the project. */
async function importGraph(): Promise<DependencyTree> {
  const tree: DependencyTree = {};
  const queue = SOURCES.flatMap(([dir, ext]) =>
    readdirSync(join(ROOT, dir), { recursive: true })
      .map((path) => join(dir, String(path)))
      .filter((path) => ext.test(path) && !SKIPPED.test(path)),
  );
  while (queue.length > 0) {
    const batch = queue.splice(0).filter((file) => !(file in tree));
    for (const file of batch) tree[file] = null;
    await Promise.all(
      batch.map(async (file) => {
        if (!/\.tsx?$/.test(file)) return;
        const { code } = await transformWithOxc(readFileSync(join(ROOT, file), 'utf8'), file, { jsx: 'preserve' });
        const dependencies: Dependency[] = staticImports(code).map((request) => ({ issuer: file, request, kind: STATIC, id: resolveRequest(file, request) }));
        tree[file] = dependencies;
        for (const { id } of dependencies) if (id !== null && !SKIPPED.test(id) && !(id in tree)) queue.push(id);
      }),
    );
  }
  return tree;
}

describe('the import graph', () => {
  it('has no runtime cycles in server, client, shared or db code', { timeout: 120_000 }, async () => {
    const tree = await importGraph();
    // The graph is read at all: a pattern that matched nothing would find no cycle either.
    expect(Object.keys(tree).length).toBeGreaterThan(500);
    expect(Object.values(tree).flatMap((dependencies) => dependencies ?? []).filter((dependency) => dependency.id !== null).length).toBeGreaterThan(1500);
    expect(parseCircular(tree, true)).toEqual([]);
  });

  it('counts what runs, not what only types use or what loads later', async () => {
    const { code } = await transformWithOxc(
      [
        "import { a } from './a';",
        "import type { B } from './b';",
        "import { c, type C } from './c';",
        "import { onlyAType } from './d';",
        "import './e';",
        "export { f } from './f';",
        "export * from './g';",
        'export const x: B & C & onlyAType = a(c) as never;',
        "export const later = () => import('./h');",
      ].join('\n'),
      'sample.ts',
    );
    expect(staticImports(code)).toEqual(['./a', './c', './e', './f', './g']);
  });

  it('finds a cycle in a graph of that shape', () => {
    const edge = (issuer: string, id: string): Dependency => ({ issuer, request: `./${id}`, kind: STATIC, id });
    expect(parseCircular({ a: [edge('a', 'b')], b: [edge('b', 'c')], c: [edge('c', 'a')] }, true)).toEqual([['a', 'b', 'c']]);
  });
});
