import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getRun } from '../../server/generation/run-queries';
import { RunConfigSchema } from '../../shared/api/runs';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * A run resumed the moment after it was paused is still winding down (its task in flight being
 * cancelled). Resuming then must start a new execution once the old one has stopped; starting at
 * once found the old one still running, started nothing, and left the run paused for good.
 */
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

describe('resuming a run that is still winding down from its pause', () => {
  it('runs it again to the end, every task ended once', async () => {
    const { db } = server.server.ctx;
    const { executor } = server.server;
    const run = executor.createRun(RunConfigSchema.parse({ engine: 'offline', stage: 'items', items: 12, concurrency: 1 }), null);
    const first = executor.start(run.id);
    executor.pause(run.id);
    // Same tick: the execution the pause aborted has not stopped yet.
    const resumed = await executor.resume(run.id);
    expect(resumed.status).toBe('running');
    await first;
    await executor.continueRun(run.id);
    const done = getRun(db, run.id);
    expect(done?.status).toBe('done');
    expect((done?.items_created ?? 0) + (done?.items_failed ?? 0) + (done?.items_declined ?? 0)).toBe(done?.tasks_total);
    const twice = db.prepare('SELECT qa_id FROM hqa_items WHERE run_id = ? GROUP BY qa_id HAVING COUNT(*) > 1').all(run.id);
    expect(twice).toEqual([]);
  }, 60_000);
});
