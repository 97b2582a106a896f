import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { openAndMigrate, openDatabase, type Db } from '../../db/database';
import { RunConfigSchema } from '../../shared/api/runs';
import type { AppContext } from '../../server/app-context';
import { importDemoIfEmpty } from '../../server/bootstrap/first-start';
import { loadConfig, type Config } from '../../server/config';
import { engineFactory } from '../../server/generation/engine-factory';
import { RunExecutor } from '../../server/generation/run-executor';
import { countTasks, getRun } from '../../server/generation/run-queries';
import type { DurableJobOptions } from '../../server/jobs/durable-job';
import { DomainEvents } from '../../server/events/event-bus';
import { STALE_OWNER_MS } from '../../server/jobs/job-owner';
import { ensureSeedProposals } from '../../server/pool/pool-service';
import { hqaModel } from '../support/fake-hqa-model';
import { startFakeOpenAI } from '../support/fake-openai';
import { waitFor } from '../support/wait-for';

const logger = pino({ level: 'silent' });
const dir = mkdtempSync(join(tmpdir(), 'hqa-two-hosts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function contextOn(db: Db, config: Config): AppContext {
  return { db, config, logger, events: new DomainEvents(db, logger), publish: () => undefined, publishTo: () => undefined, disconnectSockets: () => undefined };
}

function executorOn(ctx: AppContext, options: DurableJobOptions): RunExecutor {
  return new RunExecutor(ctx, engineFactory(ctx), options);
}

describe('one run worked by two hosts on one database file', () => {
  it('a takeover while the first host still works the run: every task runs once, every item is made once', async () => {
    // Calls that take different times: one worker ends its task while the others' are still in flight.
    const model = hqaModel();
    let call = 0;
    const fake = await startFakeOpenAI({ defaultHandler: async (chat, recorded) => ({ ...(await model(chat, recorded)), delayMs: 40 + 60 * (call++ % 4) }) });
    const dbPath = join(dir, 'hqa.sqlite');
    const dbA = openAndMigrate(dbPath);
    importDemoIfEmpty(dbA, logger);
    ensureSeedProposals(dbA);
    const dbB = openDatabase(dbPath);
    const config: Config = { ...loadConfig({}), dbPath, openaiApiKey: 'test-key', openaiBaseUrl: fake.url };
    // Same pid, two hosts. B's clock runs ahead, so A's run heartbeat looks stale to it and B takes
    // the run over while A still works it: the case of a host judged gone that is not. A beats
    // seldom, so its calls in flight at the takeover end before it notices it lost the run.
    const a = executorOn(contextOn(dbA, config), { owner: { pid: process.pid, host: 'host-a' }, heartbeatMs: 1_000 });
    const b = executorOn(contextOn(dbB, config), { owner: { pid: process.pid, host: 'host-b' }, heartbeatMs: 20, now: () => Date.now() + 2 * STALE_OWNER_MS });
    try {
      // The lowest ids: the demo's one-chart questions, which the fake model answers (its group and
      // image-only chart, added last, are other tests' business), so every task that asks makes an item.
      const run = a.createRun(RunConfigSchema.parse({ engine: 'openai', stage: 'items', items: 16, order: 'id', concurrency: 3 }), null);
      const workedByA = a.start(run.id);
      await waitFor('A to be midway with tasks in flight', () => (getRun(dbA, run.id)?.items_created ?? 0) >= 2 && countTasks(dbA, run.id, 'running') > 0, Boolean, 60_000);

      expect(b.resumeOrphans()).toEqual([run.id]);
      const workedByB = b.start(run.id);
      await Promise.all([workedByA, workedByB]);

      // A question no proposal of the pool can change is declined by the server with no call; every other task made its item.
      const ended = getRun(dbA, run.id);
      expect(ended).toMatchObject({ status: 'done', tasks_total: 16, tasks_done: 16, tasks_failed: 0, items_failed: 0 });
      const made = ended?.items_created ?? 0;
      expect(made).toBeGreaterThanOrEqual(8);
      expect(made + (ended?.items_declined ?? 0)).toBe(16);
      // Both hosts ended tasks: the takeover happened mid-run, not before or after it.
      const hosts = dbA.prepare('SELECT DISTINCT owner_host AS host FROM run_tasks WHERE run_id = ? ORDER BY host').all(run.id) as { host: string }[];
      expect(hosts.map((h) => h.host)).toEqual(['host-a', 'host-b']);
      // A call cancelled by a stop did not run the task; every other call did. One per task that asked the model.
      const calls = dbA
        .prepare(
          "SELECT t.id, t.decline_reason IS NOT NULL AS declined, COUNT(c.id) AS calls FROM run_tasks t LEFT JOIN llm_calls c ON c.task_id = t.id AND c.error IS NOT 'cancelled' WHERE t.run_id = ? GROUP BY t.id",
        )
        .all(run.id) as { id: number; declined: number; calls: number }[];
      expect(calls).toHaveLength(16);
      expect(calls.filter((task) => task.calls !== (task.declined ? 0 : 1))).toEqual([]);
      const items = dbA.prepare('SELECT COUNT(*) AS items, COUNT(DISTINCT qa_id) AS qas FROM hqa_items WHERE run_id = ?').get(run.id);
      expect(items).toEqual({ items: made, qas: made });
    } finally {
      await Promise.all([a.shutdown(), b.shutdown()]);
      dbB.close();
      dbA.close();
      await fake.close();
    }
  }, 120_000);
});
