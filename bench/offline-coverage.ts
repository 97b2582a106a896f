import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pino } from 'pino';
import { openAndMigrate, type Db } from '../db/database';
import { RunConfigSchema } from '../shared/api/runs';
import { percentHalfUp } from '../shared/eval/decimal-round';
import type { AppContext } from '../server/app-context';
import { DomainEvents } from '../server/events/event-bus';
import { DEMO_CHARTS } from '../server/bootstrap/first-start';
import { loadConfig } from '../server/config';
import { generateDemoSplit } from '../server/demo/demo-split';
import { createOfflineEngine } from '../server/generation/offline-engine';
import { closeThreadPools } from '../server/jobs/thread-pool';
import { RunExecutor } from '../server/generation/run-executor';
import { importSplit } from '../server/import/import-split';
import { ensureSeedProposals } from '../server/pool/pool-service';

/**
 * How much of a split the offline engine turns into benchmark items: the share of factual QAs
 * for which a default offline run (Stage 1 growing the pool, then Stage 2 over every QA) makes
 * an item that asks the factual question itself (`question_relation = same`), on the real
 * ChartQA sample and on the bundled demo. Also how many of them change the answer, follow
 * their proposal, and why the rest got no item.
 *   npm run bench:offline-coverage
 */

const SAMPLE = resolve(import.meta.dirname, '../../shared/data/chartqa-sample');
const MORE = resolve(SAMPLE, '..', 'chartqa-more');

interface Coverage {
  qas: number;
  withSame: number;
  items: number;
  same: number;
  changed: number;
  consistent: number;
  reasons: { reason: string; n: number }[];
}

async function coverage(db: Db): Promise<Coverage> {
  ensureSeedProposals(db);
  const ctx: AppContext = { db, config: loadConfig({}), logger: pino({ level: 'silent' }), events: new DomainEvents(db, pino({ level: 'silent' })), publish: () => undefined, publishTo: () => undefined, disconnectSockets: () => undefined };
  const executor = new RunExecutor(ctx, () => createOfflineEngine());
  const qas = (db.prepare('SELECT COUNT(*) AS n FROM factual_qas').get() as { n: number }).n;
  const run = executor.createRun(RunConfigSchema.parse({ engine: 'offline', stage: 'both', items: qas, proposal_batches: 2, concurrency: 4 }), null);
  await executor.start(run.id);
  const counts = db
    .prepare(
      `SELECT COUNT(*) AS items, SUM(question_relation = 'same') AS same, SUM(answer_unchanged = 0) AS changed, SUM(proposal_consistent = 1) AS consistent,
        (SELECT COUNT(DISTINCT qa_id) FROM hqa_items WHERE question_relation = 'same') AS with_same FROM hqa_items`,
    )
    .get() as { items: number; same: number; changed: number; consistent: number; with_same: number };
  // The reason's first clause is its kind; the rest names rows and labels.
  const reasons = db
    .prepare(
      `SELECT substr(error, 1, instr(error || ' (', ' (') - 1) AS reason, COUNT(*) AS n FROM run_tasks
       WHERE run_id = ? AND status = 'failed' GROUP BY reason ORDER BY n DESC LIMIT 5`,
    )
    .all(run.id) as { reason: string; n: number }[];
  return { qas, withSame: counts.with_same, items: counts.items, same: counts.same ?? 0, changed: counts.changed ?? 0, consistent: counts.consistent ?? 0, reasons };
}

function report(name: string, c: Coverage): void {
  const pct = (n: number, of: number) => `${(percentHalfUp(n, Math.max(of, 1), 1) ?? 0).toFixed(1)}%`;
  console.log(`${name}: ${c.withSame} of ${c.qas} factual QAs get a same-question item (${pct(c.withSame, c.qas)})`);
  console.log(`  items ${c.items}: same question ${pct(c.same, c.items)}, answer changed ${pct(c.changed, c.items)}, consistent with their proposal ${pct(c.consistent, c.items)}`);
  for (const { reason, n } of c.reasons) console.log(`  no item, ${n}×: ${reason}`);
}

const dir = mkdtempSync(join(tmpdir(), 'hqa-bench-coverage-'));
try {
  const sampleDb = openAndMigrate(join(dir, 'sample.sqlite'));
  importSplit(sampleDb, SAMPLE, { split: 'test' });
  report('ChartQA sample', await coverage(sampleDb));
  sampleDb.close();

  // 120 ChartQA test charts the rules were never tuned on.
  const moreDb = openAndMigrate(join(dir, 'more.sqlite'));
  importSplit(moreDb, MORE, { split: 'test' });
  report('ChartQA more', await coverage(moreDb));
  moreDb.close();

  const demoDb = openAndMigrate(join(dir, 'demo.sqlite'));
  generateDemoSplit({ dir: join(dir, 'demo'), split: 'demo', charts: DEMO_CHARTS, seed: 1 });
  importSplit(demoDb, join(dir, 'demo'), { split: 'demo' });
  report(`Bundled demo (${DEMO_CHARTS} charts)`, await coverage(demoDb));
  demoDb.close();
} finally {
  await closeThreadPools();
  rmSync(dir, { recursive: true, force: true });
}
