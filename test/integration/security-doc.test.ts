import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Access } from '../../server/http/handle';
import { handledRoutes } from '../support/mounted-routes';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * docs/security.md's table of every route and the least role it needs is what reviewers of the
 * workbench's security read; the roles that hold are the ones `handle` mounted. The two are
 * compared row by row, so a route added, removed or re-roled without the doc fails here (the
 * failure lists the rows to write).
 */

const DOC = join(import.meta.dirname, '../../docs/security.md');
const TABLE_HEADING = '### Every route and the least role it needs';
const METHOD_ORDER = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ demo: false });
});
afterAll(async () => {
  await server?.close();
});

/** The table's rows as `| \`METHOD /path\` | role |`, in path order, methods in METHOD_ORDER. */
function tableRows(routes: { method: string; path: string; access: Access }[]): string[] {
  return [...routes]
    .sort((a, b) => a.path.localeCompare(b.path) || METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method))
    .map((route) => `| \`${route.method} ${route.path}\` | ${route.access} |`);
}

/** The rows of the doc's route table: the lines of its section that name a route. */
function documentedRows(): string[] {
  const text = readFileSync(DOC, 'utf8');
  const start = text.indexOf(`\n${TABLE_HEADING}\n`);
  if (start === -1) throw new Error(`docs/security.md has no "${TABLE_HEADING}" section`);
  const rest = text.slice(start + TABLE_HEADING.length + 2);
  const end = rest.search(/\n#{1,3} /);
  return (end === -1 ? rest : rest.slice(0, end)).split('\n').filter((line) => /^\| `[A-Z]+ \/api/.test(line));
}

describe('docs/security.md', () => {
  it('lists every API route with the least role the server enforces on it, and nothing else', () => {
    const mounted = handledRoutes(server.server.app).map(({ endpoint, access }) => ({ method: endpoint.method, path: endpoint.path, access }));
    expect(mounted.length).toBeGreaterThan(100);
    const expected = tableRows(mounted);
    const documented = documentedRows();
    const missing = expected.filter((row) => !documented.includes(row));
    const stale = documented.filter((row) => !expected.includes(row));
    expect({ missing, stale }, `the rows of "${TABLE_HEADING}" should be:\n${expected.join('\n')}`).toEqual({ missing: [], stale: [] });
    expect(documented).toEqual(expected);
  });
});
