import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getRun } from '../../server/generation/run-queries';
import { importSplit } from '../../server/import/import-split';
import { RunConfigSchema } from '../../shared/api/runs';
import { runCliProcess } from '../support/cli';
import { CHARTQA_MORE, CHARTQA_SAMPLE } from '../support/paths';
import { setItemStatus } from '../support/factories';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * Issue 34 point 3: contention never kills work. A CLI import is another process writing the
 * same file; a run's transaction that read first and then wrote met "database is locked" at
 * once (SQLite does not wait when a read snapshot must become a write), and the run failed for
 * good. Imports into the server's database while a run works: the run ends done, no task failed.
 */
let server: TestServer;

/**
 * A Node process that, once told (`lock()`), holds SQLite's write lock on `dbPath` for `ms`:
 * another process's connection, as a CLI import's would be. (A connection in this process would
 * release it from a timer of the event loop that a waiting writer blocks.)
 */
async function lockHolder(dbPath: string, ms: number) {
  const script = `const db = new (require('better-sqlite3'))(process.argv[1]); console.log('ready');
    process.stdin.once('data', () => { db.exec('BEGIN IMMEDIATE'); console.log('locked'); setTimeout(() => { db.exec('COMMIT'); db.close(); process.exit(0); }, ${ms}); });`;
  const child = spawn(process.execPath, ['-e', script, dbPath], { cwd: process.cwd(), stdio: ['pipe', 'pipe', 'inherit'] });
  const ended = new Promise<void>((resolve, reject) => child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`lock holder exited with ${code}`)))));
  const said = (word: string) =>
    new Promise<void>((resolve, reject) => {
      const listen = (chunk: Buffer) => {
        if (!chunk.toString().includes(word)) return;
        child.stdout.off('data', listen);
        resolve();
      };
      child.stdout.on('data', listen);
      void ended.then(() => reject(new Error(`lock holder ended before saying ${word}`)), reject);
    });
  await said('ready');
  let locked = 0;
  let released: number | null = null;
  void ended.then(() => (released = Date.now()), () => undefined);
  return {
    ended,
    lock: async () => {
      const saidLocked = said('locked');
      child.stdin.end('lock\n');
      await saidLocked;
      locked = Date.now();
    },
    heldMs: () => (released ?? Date.now()) - locked,
  };
}

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
    // Import after import while the run works (at least two, at most three), each a new split.
    for (let n = 0; n < 2 || (!finished && n < 3); n++) {
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

  it('waits out another connection holding the write lock past the busy timeout, then finishes: a generation run and an evaluation run alike', async () => {
    const { db } = server.server.ctx;
    const { executor, evalExecutor } = server.server;
    // Forty items: of ten, on a busy machine, all were made before the other process said it held the lock.
    const run = executor.createRun(RunConfigSchema.parse({ engine: 'offline', stage: 'both', split: 'sample', items: 40, proposal_batches: 1 }), null);
    // The first test's items, accepted, are what the evaluation asks.
    setItemStatus(db, 'accepted');
    const evalRun = evalExecutor.createRun({ engine: 'factual-baseline', mode: 'hqa', concurrency: 2, limit: 20 }, null);
    // Another process holds the write lock for 11 s from before either starts, past the 5 s a
    // writer waits, twice: each start's first write meets "database is locked" (the generation
    // run's at 5 s, the evaluation's, blocked behind it, at 10 s) and is tried again.
    // (Locked after the start, a ten-item run on a busy machine was done before the lock.)
    const other = await lockHolder(server.dbPath, 11_000);
    try {
      await other.lock();
      const running = [executor.start(run.id), evalExecutor.start(evalRun.id)];
      await Promise.all(running);
      const done = getRun(db, run.id);
      expect({ status: done?.status, reason: done?.stop_reason ?? null }).toEqual({ status: 'done', reason: null });
      const failed = db.prepare("SELECT COUNT(*) AS n FROM run_tasks WHERE run_id = ? AND status = 'failed'").get(run.id) as { n: number };
      expect(failed.n).toBe(0);
      const evalDone = evalExecutor.get(evalRun.id);
      expect({ status: evalDone.status, error: evalDone.error }).toEqual({ status: 'done', error: null });
      expect(evalDone.items_answered).toBe(evalRun.items_total);
      expect(evalRun.items_total).toBeGreaterThan(0);
      expect(other.heldMs()).toBeGreaterThanOrEqual(11_000);
    } finally {
      await other.ended;
    }
  }, 120_000);
});

