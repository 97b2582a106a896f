import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillPath } from '../../shared/api/endpoint';
import { exportApi } from '../../shared/api/export';
import { generateItems } from '../support/review-fixtures';
import { handledRoutes } from '../support/mounted-routes';
import { SignedInUsers, type SignedInUser } from '../support/signed-in-users';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * A GET can be sent with a user's cookie by any page (`<img src>` on another port of the same
 * host is same-site and carries it), so no GET may change anything: every GET route the app
 * mounts is called as an admin over a database with items, runs and proposals, and no table
 * but `sessions` (last-seen bookkeeping) may differ afterwards. Work that writes — a download
 * audited in the caller's name — is a POST, behind the write guard.
 */

let server: TestServer;
let admin: SignedInUser;

beforeAll(async () => {
  server = await startTestServer();
  await generateItems(server, 4);
  server.server.ctx.db.prepare("UPDATE hqa_items SET status = 'accepted' WHERE id % 2 = 0").run();
  admin = await new SignedInUsers(server).create('admin');
});
afterAll(async () => {
  await server?.close();
});

/** Every row of every table except `sessions`, as text: what a GET must leave as it found it. */
function storedState(): Record<string, string> {
  const db = server.server.ctx.db;
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != 'sessions' ORDER BY name").all() as { name: string }[];
  return Object.fromEntries(tables.map(({ name }) => [name, JSON.stringify(db.prepare(`SELECT * FROM "${name}"`).raw().all())]));
}

/** An id that exists for a path's `:id`, so the route does its real work rather than a 404. */
function idFor(path: string): number {
  const db = server.server.ctx.db;
  const first = (sql: string) => (db.prepare(sql).pluck().get() as number | undefined) ?? 1;
  if (path.startsWith('/api/items/') || path.startsWith('/api/review/items/')) return first("SELECT id FROM hqa_items WHERE status = 'accepted' ORDER BY id");
  if (path.startsWith('/api/charts/')) return first('SELECT id FROM charts ORDER BY id');
  if (path.startsWith('/api/pool/') || path.startsWith('/api/reflection/') || path.startsWith('/api/analytics/lineage/')) return first('SELECT id FROM proposals ORDER BY id');
  if (path.startsWith('/api/runs/')) return first('SELECT id FROM runs ORDER BY id');
  if (path.startsWith('/api/chart-groups/')) return first('SELECT id FROM chart_groups ORDER BY id');
  if (path.startsWith('/api/eval-runs/')) return first('SELECT id FROM eval_runs ORDER BY id');
  return 1;
}

describe('GET routes', () => {
  it('change nothing stored, whatever they answer', async () => {
    const gets = handledRoutes(server.server.app).filter(({ endpoint }) => endpoint.method === 'GET');
    expect(gets.length).toBeGreaterThan(40);
    const changed: string[] = [];
    const answered: Record<string, number> = {};
    for (const { endpoint } of gets) {
      const path = fillPath(endpoint.path, { id: idFor(endpoint.path) });
      const before = storedState();
      // Raw fetch: some answers are files (JSON lines, PNG) the test client would try to parse.
      const res = await fetch(`${server.url}${path}`, { headers: { cookie: admin.client.cookie } });
      await res.arrayBuffer();
      answered[endpoint.path] = res.status;
      const after = storedState();
      const tables = Object.keys(after).filter((table) => after[table] !== before[table]);
      if (tables.length > 0) changed.push(`GET ${path} (${res.status}) changed ${tables.join(', ')}`);
    }
    expect(changed).toEqual([]);
    // The calls did their work: no route failed, and nearly all answered what they hold.
    expect(Object.entries(answered).filter(([, status]) => status >= 500)).toEqual([]);
    expect(Object.values(answered).filter((status) => status === 200).length).toBeGreaterThan(gets.length * 0.8);
  });

  it('would see one that writes: the export download, which is audited, is a POST', async () => {
    expect([exportApi.download.method, exportApi.hfDataset.method]).toEqual(['POST', 'POST']);
    const before = storedState();
    const res = await admin.client.post(exportApi.download.path, { format: 'jsonl' });
    expect(res.status).toBe(200);
    const after = storedState();
    expect(Object.keys(after).filter((table) => after[table] !== before[table])).toEqual(['audit_log']);
    // The same path as a GET is no route at all.
    expect((await admin.client.get(`${exportApi.download.path}?format=jsonl`)).status).toBe(404);
  });
});
