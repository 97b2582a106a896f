import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getRun } from '../../server/generation/run-queries';
import { RunConfigSchema } from '../../shared/api/runs';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * Issue 34 point 3: a full disk never kills work. SQLite says "database or disk is full"
 * (SQLITE_FULL) when it cannot grow the file; `max_page_count` at the file's current size makes
 * it say so here, on the server's own connection, as a full disk would. The run pauses with
 * reason `storage_unavailable`, the server keeps answering, and once there is room a resume
 * finishes the run with nothing lost or made twice.
 */
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

describe('a run meeting a full disk', () => {
  it('pauses for storage, leaves the server up, and finishes when resumed with room again', async () => {
    const { db } = server.server.ctx;
    const { executor } = server.server;
    const run = executor.createRun(RunConfigSchema.parse({ engine: 'offline', stage: 'items', items: 30 }), null);
    const pages = db.pragma('page_count', { simple: true }) as number;
    const roomy = db.pragma('max_page_count', { simple: true }) as number;
    db.pragma(`max_page_count = ${pages}`);
    await executor.start(run.id);

    const paused = getRun(db, run.id);
    expect(paused?.status).toBe('paused');
    expect(paused?.stop_reason).toMatch(/^storage_unavailable: /);
    const health = await fetch(`${server.url}/api/health`);
    expect(health.status).toBe(200);

    db.pragma(`max_page_count = ${roomy}`);
    await executor.resume(run.id);
    await executor.start(run.id);
    const done = getRun(db, run.id);
    expect(done?.status).toBe('done');
    expect(done?.items_created).toBeGreaterThan(0);
    const perQa = db.prepare('SELECT qa_id, COUNT(*) AS n FROM hqa_items WHERE run_id = ? GROUP BY qa_id HAVING n > 1').all(run.id);
    expect(perQa).toEqual([]);
    const tasks = db.prepare("SELECT COUNT(*) AS n FROM run_tasks WHERE run_id = ? AND status = 'failed'").get(run.id) as { n: number };
    expect(tasks.n).toBe(0);
  }, 60_000);
});
