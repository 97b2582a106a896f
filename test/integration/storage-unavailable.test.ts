import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { authApi } from '../../shared/api/auth';
import { chartsApi } from '../../shared/api/charts';
import { itemsApi } from '../../shared/api/items';
import { poolApi } from '../../shared/api/pool';
import { reviewApi } from '../../shared/api/review';
import { ErrorBodySchema } from '../../shared/errors';
import { getQaWithChart } from '../../server/charts/chart-queries';
import { importSplit } from '../../server/import/import-split';
import { createVerifiedItem } from '../../server/items/item-service';
import { fillDatabase } from '../support/fill-database';
import { runCli } from '../support/cli';
import { TestClient } from '../support/http-client';
import { HUMAN_ITEM } from '../support/item-factory';
import { CHARTQA_EXTRA, CHARTQA_SAMPLE } from '../support/paths';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * A database that cannot take writes. Tests run as root, whom chmod does not stop, so the
 * conditions come from SQLite itself, on the server's own connection:
 * - read-only: `PRAGMA query_only` makes SQLite refuse every write with SQLITE_READONLY, the
 *   error a read-only file gives, while reads go on;
 * - full disk: `PRAGMA max_page_count` at the file's current size, with its free pages used
 *   up, makes any write that needs a new page fail with SQLITE_FULL, as a full disk does.
 * Both are real SqliteErrors thrown from inside the real routes' transactions.
 * For start-up, the file really is read-only for the process that opens it: chmod 0444,
 * and when the test runs as root the CLI and server run as `nobody` (uid 65534).
 */

function expectStorageUnavailable(res: { status: number; body: unknown }) {
  expect(res.status, JSON.stringify(res.body)).toBe(503);
  expect(ErrorBodySchema.parse(res.body).error.code).toBe('storage_unavailable');
}

describe('writes on a database that cannot take them answer 503 storage_unavailable; reads keep working', () => {
  let server: TestServer;
  let curator: TestClient;
  let reviewer: TestClient;
  const db = () => server.server.ctx.db;

  beforeAll(async () => {
    server = await startTestServer({ demo: false });
    await server.createUser('cora', 'curator', 'curator-pass-1');
    await server.createUser('rev', 'reviewer', 'reviewer-pass-1');
    expect(importSplit(db(), CHARTQA_SAMPLE).errors).toEqual([]);
    curator = new TestClient(server.url);
    await curator.login('cora', 'curator-pass-1');
    reviewer = new TestClient(server.url);
    await reviewer.login('rev', 'reviewer-pass-1');
  });
  afterAll(async () => {
    await server?.close();
  });
  afterEach(() => {
    db().pragma('query_only = OFF');
    db().pragma('max_page_count = 1073741823');
  });

  it('read-only: chart, proposal and login writes are 503s and change nothing; reads answer; writes work again after', async () => {
    const chart = await curator.call(chartsApi.get, { params: { id: 1 } });
    const proposals = (db().prepare('SELECT COUNT(*) AS n FROM proposals').get() as { n: number }).n;
    const newType = chart.chart.chart_type === 'pie' ? 'line' : 'pie';
    db().pragma('query_only = ON');

    expectStorageUnavailable(await curator.send(chartsApi.update, { params: { id: 1 }, body: { chart_type: newType } }));
    expectStorageUnavailable(await curator.send(poolApi.create, { body: { chart_type: 'pie', text: 'Suppose a brand new slice named Other took exactly one fifth of the whole pie.' } }));
    expectStorageUnavailable(await new TestClient(server.url).send(authApi.login, { body: { username: 'rev', password: 'reviewer-pass-1' } }));
    await curator.call(chartsApi.list, { query: { page_size: 5 } });
    expect(await curator.call(chartsApi.get, { params: { id: 1 } })).toEqual(chart);
    await reviewer.call(itemsApi.list, { query: {} });
    await curator.call(poolApi.list, { query: {} });

    db().pragma('query_only = OFF');
    expect((db().prepare('SELECT COUNT(*) AS n FROM proposals').get() as { n: number }).n).toBe(proposals);
    await curator.call(chartsApi.update, { params: { id: 1 }, body: { chart_type: newType } });
  });

  it('full disk: a review whose write runs out of pages is a 503 and leaves the lease, no review, the item pending; it is stored once space is back', async () => {
    const source = getQaWithChart(db(), 1);
    if (!source) throw new Error('no factual QA 1');
    const assumption = 'Suppose every value doubled.';
    const item = createVerifiedItem(db(), {
      source,
      draft: { assumption, question: `${assumption} ${source.qa.query}`, answer: '1', answer_type: 'integer', rationale: 'hand-built', affects_answer: true, edit: null, program: '1' },
      ...HUMAN_ITEM,
    });
    const { task } = await reviewer.call(reviewApi.next, { body: {} });
    expect(task?.item.id).toBe(item?.id);
    const itemId = task?.item.id ?? 0;
    // Notes and feedback at their limits: ~10 KB, so the review row needs overflow pages.
    const note = 'n'.repeat(2000);
    const review = {
      decision: 'accept' as const,
      criteria: { rationality: { pass: true, note }, correctness: { pass: true, note }, layout: { pass: true, note } },
      feedback: 'f'.repeat(4000),
      time_spent_ms: 1000,
    };
    const state = () => ({
      reviews: (db().prepare('SELECT COUNT(*) AS n FROM reviews WHERE item_id = ?').get(itemId) as { n: number }).n,
      leases: (db().prepare('SELECT COUNT(*) AS n FROM leases WHERE item_id = ?').get(itemId) as { n: number }).n,
      status: (db().prepare('SELECT status FROM hqa_items WHERE id = ?').get(itemId) as { status: string }).status,
    });
    const before = state();
    expect(before).toMatchObject({ reviews: 0, leases: 1 });

    // Fill the file to its limit: free pages and the filler's own slack used up.
    fillDatabase(db());

    // The submission deletes the lease, then inserts the review: the insert fails, the delete is undone with it.
    expectStorageUnavailable(await reviewer.send(reviewApi.submit, { params: { id: itemId }, body: review }));
    expect(state()).toEqual(before);
    await reviewer.call(itemsApi.get, { params: { id: itemId } });

    db().pragma('max_page_count = 1073741823');
    db().exec('DROP TABLE disk_filler');
    await reviewer.call(reviewApi.submit, { params: { id: itemId }, body: review });
    expect(state()).toMatchObject({ reviews: 1, leases: 0, status: 'accepted' });
  });
});

describe('starting on a read-only database file prints one line naming it and exits non-zero', () => {
  let dir: string;
  let dbPath: string;
  const asRoot = process.getuid?.() === 0;
  /** Root writes through chmod 0444: the commands run as `nobody` then, for whom the file is read-only. */
  const unprivileged = asRoot ? { uid: 65534, gid: 65534 } : {};
  const env = () => ({ ...process.env, OPENAI_API_KEY: '', HQA_DB: dbPath, HQA_LOG_LEVEL: 'silent', HQA_PORT: '0' });

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hqa-readonly-'));
    dbPath = join(dir, 'hqa.sqlite');
    expect((await runCli(['migrate'], { dbPath })).status).toBe(0);
    chmodSync(dbPath, 0o444);
    // The folder stays writable (and reachable for nobody): only the file is read-only.
    chmodSync(dir, 0o777);
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  const oneLine = (path: string) => new RegExp(`^[^\\n]*${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: the database cannot be written \\([^\\n]*SQLITE_READONLY[^\\n]*\\n$`);

  // Each spawns a process (tsx compiles cold for a new uid): more than the default 30 s on a loaded machine.
  const SPAWN_TEST_MS = 120_000;

  it('hqa import', () => {
    const result = spawnSync(resolve('node_modules/.bin/tsx'), [resolve('server/cli/main.ts'), 'import', CHARTQA_EXTRA], {
      env: env(),
      encoding: 'utf8',
      timeout: SPAWN_TEST_MS - 10_000,
      ...unprivileged,
    });
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^hqa: /);
    expect(result.stderr).toMatch(oneLine(dbPath));
    expect(result.status).toBe(1);
  }, SPAWN_TEST_MS);

  it('the server (npm start runs server/main.ts)', async () => {
    const child = spawn(resolve('node_modules/.bin/tsx'), [resolve('server/main.ts')], { env: env(), ...unprivileged });
    let stderr = '';
    let stdout = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const killer = setTimeout(() => child.kill('SIGKILL'), SPAWN_TEST_MS - 10_000);
    const status = await new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    clearTimeout(killer);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^Chart-HQA Workbench cannot start: /);
    expect(stderr).toMatch(oneLine(dbPath));
    expect(status).toBe(1);
  }, SPAWN_TEST_MS);
});
