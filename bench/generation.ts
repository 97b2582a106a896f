import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { openAndMigrate } from '../db/database';
import { RunConfigSchema } from '../shared/api/runs';
import type { AppContext } from '../server/app-context';
import { DomainEvents } from '../server/events/event-bus';
import { loadConfig } from '../server/config';
import { generateDemoSplit } from '../server/demo/demo-split';
import type { GenerationEngine } from '../server/generation/engine';
import { createOpenAiEngine } from '../server/generation/openai-engine';
import { RunExecutor } from '../server/generation/run-executor';
import { getRun } from '../server/generation/run-queries';
import { importSplit } from '../server/import/import-split';
import { ensureSeedProposals } from '../server/pool/pool-service';
import { providersFor } from '../server/llm/model-roles';
import { getSettings } from '../server/settings/settings-queries';
import { hqaModel } from '../test/support/fake-hqa-model';
import { startFakeOpenAI } from '../test/support/fake-openai';

/**
 * Generation benchmark: N Stage-2 items (default 1,000) through the real openai SDK against the
 * fake OpenAI-compatible server with a fixed 100 ms latency, at concurrency 8. Prints wall time
 * over the ideal (N × 0.1 s / 8; target ≤ 1.25) and the share of worker time spent outside the
 * model call (database, verification, planning).
 *   npm run bench:generation -- [items] [concurrency]
 */
const items = Number(process.argv[2] ?? 1000);
const concurrency = Number(process.argv[3] ?? 8);
const LATENCY_MS = 100;

const dir = mkdtempSync(join(tmpdir(), 'hqa-bench-gen-'));
const fake = await startFakeOpenAI({ defaultHandler: hqaModel({ delayMs: LATENCY_MS }) });
try {
  const db = openAndMigrate(join(dir, 'bench.sqlite'));
  generateDemoSplit({ dir: join(dir, 'split'), split: 'bench', charts: Math.ceil(items / 2.5) + 20, seed: 3 });
  importSplit(db, join(dir, 'split'), { split: 'bench' });
  ensureSeedProposals(db);
  const ctx: AppContext = { db, config: { ...loadConfig({}), openaiApiKey: 'bench', openaiBaseUrl: fake.url }, logger: pino({ level: 'silent' }), events: new DomainEvents(db, pino({ level: 'silent' })), publish: () => undefined, publishTo: () => undefined, disconnectSockets: () => undefined };

  let inModelMs = 0;
  const timed = (engine: GenerationEngine): GenerationEngine => ({
    ...engine,
    proposals: engine.proposals.bind(engine),
    async item(request) {
      const start = performance.now();
      try {
        return await engine.item(request);
      } finally {
        inModelMs += performance.now() - start;
      }
    },
  });
  const { connection } = providersFor(getSettings(db), ctx.config).generation;
  if (!connection) throw new Error('the bench context names an endpoint');
  const executor = new RunExecutor(ctx, (run) => timed(createOpenAiEngine({ db, connection, model: run.model, temperature: 0, settings: getSettings(db) })));
  const run = executor.createRun(RunConfigSchema.parse({ engine: 'openai', model: 'gpt-4o-mini', stage: 'items', items, concurrency }), null);
  const start = performance.now();
  await executor.start(run.id);
  const wallMs = performance.now() - start;
  const done = getRun(db, run.id);
  db.close();

  const idealMs = (items * LATENCY_MS) / concurrency;
  const outside = 1 - inModelMs / (wallMs * concurrency);
  console.log(`items: ${done?.items_created} created, ${done?.items_declined} no item possible, ${done?.items_failed} failed, status ${done?.status}`);
  console.log(`wall ${(wallMs / 1000).toFixed(2)} s, ideal ${(idealMs / 1000).toFixed(2)} s, ratio ${(wallMs / idealMs).toFixed(3)} (target ≤ 1.25)`);
  console.log(`share of worker time outside the model call (database, verification, planning): ${(outside * 100).toFixed(1)}%`);
} finally {
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
}
