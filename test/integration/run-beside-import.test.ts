import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getRun } from '../../server/generation/run-queries';
import { importSplit } from '../../server/import/import-split';
import { RunConfigSchema } from '../../shared/api/runs';
import { runCliProcess } from '../support/cli';
import { CHARTQA_MORE, CHARTQA_SAMPLE } from '../support/paths';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * Issue 34 point 3: contention never kills work. A CLI import is another process writing the
 * same file; a run's transaction that read first and then wrote met "database is locked" at
 * once (SQLite does not wait when a read snapshot must become a write), and the run failed for
 * good. Imports into the server's database while a run works: the run ends done, no task failed.
 */
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

describe('a run beside a CLI import', () => {
  it('finishes with no failed task while other processes import into the same database', async () => {
    const { db } = server.server.ctx;
    const { executor } = server.server;
    // Real ChartQA charts, every one with its table: a task that fails here fails for contention.
    importSplit(db, CHARTQA_SAMPLE, { split: 'sample' });
    const run = executor.createRun(RunConfigSchema.parse({ engine: 'offline', stage: 'both', split: 'sample', items: 83, proposal_batches: 1, concurrency: 4 }), null);
    let finished = false;
    const running = executor.start(run.id).finally(() => (finished = true));
    const imports: { status: number; stderr: string }[] = [];
    // Import after import for as long as the run works (at least two), each a new split.
    for (let n = 0; n < 2 || (!finished && n < 6); n++) {
      imports.push(await runCliProcess(['import', n % 2 === 0 ? CHARTQA_MORE : CHARTQA_SAMPLE, '--split', `beside-${n}`, '--json'], { dbPath: server.dbPath }));
    }
    await running;
    expect(imports.map((result) => (result.status === 0 ? 0 : result.stderr))).toEqual(imports.map(() => 0));
    const done = getRun(db, run.id);
    expect({ status: done?.status, reason: done?.stop_reason ?? null }).toEqual({ status: 'done', reason: null });
    const failed = db.prepare("SELECT COUNT(*) AS n FROM run_tasks WHERE run_id = ? AND status = 'failed'").get(run.id) as { n: number };
    const errors = db.prepare("SELECT error FROM run_tasks WHERE run_id = ? AND status = 'failed'").all(run.id);
    expect(errors).toEqual([]);
    expect(failed.n).toBe(0);
    expect(done?.items_created).toBeGreaterThan(0);
  }, 180_000);

  it('waits out another connection holding the write lock past the busy timeout, then finishes', async () => {
    const { db } = server.server.ctx;
    const { executor } = server.server;
    const run = executor.createRun(RunConfigSchema.parse({ engine: 'offline', stage: 'both', split: 'sample', items: 10, proposal_batches: 1 }), null);
    // Another process's connection, as a CLI import's would be, taking the write lock for 6 s,
    // past the 5 s a writer waits: the run's first write meets "database is locked".
    const running = executor.start(run.id);
    const other = new Database(server.dbPath);
    other.exec('BEGIN IMMEDIATE');
    const release = setTimeout(() => other.exec('COMMIT'), 6_000);
    try {
      await running;
      const done = getRun(db, run.id);
      expect({ status: done?.status, reason: done?.stop_reason ?? null }).toEqual({ status: 'done', reason: null });
      const failed = db.prepare("SELECT COUNT(*) AS n FROM run_tasks WHERE run_id = ? AND status = 'failed'").get(run.id) as { n: number };
      expect(failed.n).toBe(0);
    } finally {
      clearTimeout(release);
      if (other.inTransaction) other.exec('COMMIT');
      other.close();
    }
  }, 120_000);
});

