import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openAndMigrate } from '../../db/database';
import { type Run, runsApi } from '../../shared/api/runs';
import { correctReply } from '../support/fake-hqa-model';
import { jsonReply, startFakeOpenAI, textReply } from '../support/fake-openai';
import { TestClient } from '../support/http-client';
import { startServerProcess, stopProcess, type ServerProcess } from '../support/server-process';
import { waitFor } from '../support/wait-for';

const dir = mkdtempSync(join(tmpdir(), 'hqa-crash-usage-'));
const dbPath = join(dir, 'hqa.sqlite');
/** Servers started here, so that none outlives a failed or timed-out test. */
const started: ServerProcess[] = [];
afterAll(async () => {
  for (const server of started) await stopProcess(server.child, 'SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** Two server starts and a run on a loaded 2-core machine. */
const TEST_TIMEOUT_MS = 120_000;

/** Long enough that the kill lands while every worker waits on its repair call. */
const REPAIR_DELAY_MS = 2_000;

interface Usage {
  llm_calls: number;
  prompt_tokens: number;
  completion_tokens: number;
  cost: number;
}

/** The run's counters and the sum of its llm_calls rows, read from the file. */
function usage(runId: number): { run: Usage; calls: Usage } {
  const db = openAndMigrate(dbPath);
  try {
    const run = db.prepare('SELECT llm_calls, prompt_tokens, completion_tokens, cost FROM runs WHERE id = ?').get(runId) as Usage;
    const calls = db
      .prepare('SELECT COUNT(*) AS llm_calls, SUM(prompt_tokens) AS prompt_tokens, SUM(completion_tokens) AS completion_tokens, SUM(cost) AS cost FROM llm_calls WHERE run_id = ?')
      .get(runId) as Usage;
    return { run, calls };
  } finally {
    db.close();
  }
}

function waitForRun(client: TestClient, id: number, until: (run: Run) => boolean): Promise<Run> {
  return waitFor(`run ${id} to get there`, async () => (await client.call(runsApi.get, { params: { id } })).run, until, 60_000);
}

describe('usage of calls in flight at a crash', () => {
  it('is reconciled from llm_calls on resume: the run counts exactly what its calls cost', async () => {
    // Every first answer is prose (paid for, recorded, then repaired); the repair answers late.
    const fake = await startFakeOpenAI({
      defaultHandler: (chat) => (chat.messages.length <= 2 ? textReply('Here is the item you asked for.') : jsonReply(correctReply(chat), { delayMs: REPAIR_DELAY_MS })),
    });
    // The review warm-up before listening plays no part in surviving a kill (~1.5–2 s a start here).
    const env = { HQA_DB: dbPath, OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.url, HQA_WARM_UP: 'false' };
    try {
      const first = await startServerProcess(env);
      started.push(first);
      const password = /password\s+(\S+)\s/.exec(first.output())?.[1] ?? '';
      const client = new TestClient(first.url);
      await client.login('admin', password);
      const { run } = await client.call(runsApi.create, { body: { engine: 'openai', stage: 'items', items: 4, concurrency: 2 } });
      // Both workers' first answers are recorded and both repairs are in flight.
      await expect.poll(() => fake.requests.length, { timeout: 20_000 }).toBeGreaterThanOrEqual(4);
      expect(await stopProcess(first.child, 'SIGKILL')).toBeNull();

      let asked = 0;
      const crashed = usage(run.id);
      expect(crashed.calls.llm_calls).toBe(2);
      expect(crashed.calls.prompt_tokens).toBeGreaterThan(0);
      expect(crashed.run).toEqual({ llm_calls: 0, prompt_tokens: 0, completion_tokens: 0, cost: 0 });

      const second = await startServerProcess(env);
      started.push(second);
      try {
        const again = new TestClient(second.url);
        again.cookie = client.cookie;
        const done = await waitForRun(again, run.id, (r) => r.status === 'done');
        // A question no proposal of the pool can change is declined by the server with no call.
        expect(done).toMatchObject({ items_failed: 0 });
        expect(done.items_created + done.items_declined).toBe(4);
        asked = done.items_created;
      } finally {
        await stopProcess(second.child, 'SIGTERM');
      }
      const { run: counted, calls } = usage(run.id);
      // Two calls per task that asked (prose, then its repair), and the two first answers made before the crash again.
      expect(calls.llm_calls).toBe(2 * asked + 2);
      expect(counted).toMatchObject({ llm_calls: calls.llm_calls, prompt_tokens: calls.prompt_tokens, completion_tokens: calls.completion_tokens });
      expect(counted.cost).toBeCloseTo(calls.cost, 12);
    } finally {
      await fake.close();
    }
  }, TEST_TIMEOUT_MS);
});
