import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate } from '../../db/database';
import { getRun, listRunDeclines, pendingTasks } from '../../server/generation/run-queries';
import { databaseAtVersion } from '../support/migrated-database';

/** Migration 029: a task's pairing and decline, and a run's declined count. */

const dir = mkdtempSync(join(tmpdir(), 'hqa-migration-029-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('migration 029', () => {
  it('leaves the tasks of a run made before it unpaired (paired when next worked) and its declined count at 0', () => {
    const db = databaseAtVersion(dir, 28);
    const runId = Number(db.prepare(`INSERT INTO runs (engine, model, stage, config) VALUES ('openai', 'm', 'items', '{"engine":"openai"}')`).run().lastInsertRowid);
    db.prepare(`INSERT INTO run_tasks (run_id, kind, chart_type, idempotency_key) VALUES (?, 'item', 'pie', 'k1')`).run(runId);
    // Later migrations follow it; 029 is the first this database takes.
    expect(migrate(db)[0]).toBe(29);

    expect(getRun(db, runId)).toMatchObject({ items_declined: 0, items_failed: 0 });
    expect(pendingTasks(db, runId, 'item').map((task) => task.pairing)).toEqual([null]);
    expect(listRunDeclines(db, runId)).toEqual([]);
    db.close();
  });
});
