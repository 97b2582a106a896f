import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openAndMigrate } from '../../db/database';
import { type Run, runsApi } from '../../shared/api/runs';
import { hqaModel } from '../support/fake-hqa-model';
import { startFakeOpenAI } from '../support/fake-openai';
import { TestClient } from '../support/http-client';
import { startServerProcess, stopProcess } from '../support/server-process';
import { waitFor } from '../support/wait-for';

const dir = mkdtempSync(join(tmpdir(), 'hqa-resume-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function waitForRun(client: TestClient, id: number, until: (run: Run) => boolean): Promise<Run> {
  return waitFor(`run ${id} to get there`, async () => (await client.call(runsApi.get, { params: { id } })).run, until, 60_000);
}

describe('a run survives SIGKILL', () => {
  it('resumes on the next start: no item lost, none made twice', async () => {
    const fake = await startFakeOpenAI({ defaultHandler: hqaModel({ delayMs: 150 }) });
    // Each start without the review warm-up (a second or two of claims before it listens) and with the rules
    // that pair questions with proposals in-process (a thread would load them again at each start):
    // neither is what a run's survival depends on.
    const env = { HQA_DB: join(dir, 'hqa.sqlite'), OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.url, HQA_WARM_UP: 'false', HQA_OFFLINE_THREADS: '0' };
    try {
      const first = await startServerProcess(env);
      const password = /password\s+(\S+)\s/.exec(first.output())?.[1] ?? '';
      const client = new TestClient(first.url);
      await client.login('admin', password);
      // The lowest ids: the demo's one-chart questions, which the fake model answers (its group and
      // image-only chart, added last, are other tests' business), so every task that asks makes an
      // item; a question no proposal of the pool can change is declined by the server, unasked.
      const { run } = await client.call(runsApi.create, { body: { engine: 'openai', stage: 'items', items: 12, order: 'id', concurrency: 2 } });
      let made = 0;
      const midway = await waitForRun(client, run.id, (r) => r.items_created >= 3);
      expect(midway.items_created).toBeLessThan(12);
      expect(await stopProcess(first.child, 'SIGKILL')).toBeNull();

      const second = await startServerProcess(env);
      try {
        const again = new TestClient(second.url);
        again.cookie = client.cookie;
        const done = await waitForRun(again, run.id, (r) => r.status === 'done');
        expect(done).toMatchObject({ tasks_total: 12, items_failed: 0, tasks_failed: 0 });
        expect(done.items_created + done.items_declined).toBe(12);
        made = done.items_created;
      } finally {
        await stopProcess(second.child, 'SIGTERM');
      }
      const db = openAndMigrate(env.HQA_DB);
      try {
        const counts = db
          .prepare('SELECT COUNT(*) AS items, COUNT(DISTINCT qa_id) AS qas, COUNT(DISTINCT idempotency_key) AS keys FROM hqa_items WHERE run_id = ?')
          .get(run.id) as { items: number; qas: number; keys: number };
        expect(counts).toEqual({ items: made, qas: made, keys: made });
      } finally {
        db.close();
      }
    } finally {
      await fake.close();
    }
    // Two server starts and a run: the first one killed for real now, on a loaded 2-core machine.
  }, 120_000);
});
