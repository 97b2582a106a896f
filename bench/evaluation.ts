import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pino } from 'pino';
import { openAndMigrate, type Db } from '../db/database';
import { RunConfigSchema } from '../shared/api/runs';
import { EVAL_MODES, EvalModeSchema, EvalResultsQuerySchema } from '../shared/api/evaluations';
import { compareModels } from '../shared/eval/compare';
import type { AppContext } from '../server/app-context';
import { DomainEvents } from '../server/events/event-bus';
import { chartImage } from '../server/charts/chart-image';
import { loadConfig } from '../server/config';
import { generateDemoSplit } from '../server/demo/demo-split';
import { EvalExecutor } from '../server/eval/eval-executor';
import { getEvalRun, listEvalRuns, listResults, publicEvalRun, type EvalRunRecord } from '../server/eval/eval-queries';
import { openAiAsker, type ModelAsker } from '../server/eval/model-asker';
import { itemDrawingPlan } from '../server/eval/condition-drawings';
import { renderChartPng } from '../server/charts/render-chart';
import { EVAL_MAX_ATTEMPTS, EVAL_TIMEOUT_MS } from '../server/llm/model-roles';
import { visionOptions } from '../server/llm/vision-image';
import { getSettings } from '../server/settings/settings-queries';
import { engineFactory } from '../server/generation/engine-factory';
import { RunExecutor } from '../server/generation/run-executor';
import { importSplit } from '../server/import/import-split';
import { ensureSeedProposals } from '../server/pool/pool-service';
import { startFakeOpenAI, textReply } from '../test/support/fake-openai';
import { benchBatchRoundTrip } from './evaluation-batch';
import { startFakeVlmProcess } from './fake-vlm-process';
import { benchScoreFormats } from './evaluation-formats';
import { benchJudge } from './evaluation-judge';
import { benchScoringRules } from './evaluation-rules';

/**
 * Evaluation benchmark, two parts.
 * 1. Model runs: N questions (default 1,000) with their chart images through the real openai SDK
 *    against the fake server at a fixed 100 ms latency, concurrency 8: wall time over the ideal
 *    (N × 0.1 s / 8) and the share of worker time outside the model call (image, database).
 * 2. Scale: 100,000 accepted items evaluated by the factual baseline: snapshot, answering,
 *    listing runs, a deep page of the drill-down, the comparison.
 * 3. Scoring: 100,000 predictions under each scoring rule, the seed benchmarks' file formats,
 *    LLM-judge grading against the fake server at 100 ms latency (ratio to ideal), and the
 *    batch-mode round trip (JSONL → fake Batch API → predictions).
 * 4. Conditions: one run of all five conditions (issue 36) over BENCH_CONDITION_ITEMS accepted
 *    items (default 2,000) whose charts have their PNG, against the fake at 100 ms latency: two of
 *    the five draw each item's original and edited table on the render threads while the model
 *    answers. Wall time over the ideal, ceil(questions / concurrency) × 100 ms (target ≤ 1.1).
 *   npm run bench:evaluation -- [questions] [concurrency]
 *   BENCH_PART=conditions npm run bench:evaluation -- [questions] [concurrency]   (part 4 alone)
 */
const questions = Number(process.argv[2] ?? 1000);
const concurrency = Number(process.argv[3] ?? 8);
const LATENCY_MS = 100;
const SCALE_ITEMS = 100_000;

const dir = mkdtempSync(join(tmpdir(), 'hqa-bench-eval-'));
const fake = await startFakeOpenAI({ defaultHandler: () => textReply('The tallest bar.\nAnswer: 42', { delayMs: LATENCY_MS }) });
const silent = pino({ level: 'silent' });
const ms = (start: number) => performance.now() - start;

function context(db: Db): AppContext {
  return { db, config: { ...loadConfig({}), openaiApiKey: 'bench', openaiBaseUrl: fake.url }, logger: silent, events: new DomainEvents(db, pino({ level: 'silent' })), publish: () => undefined, publishTo: () => undefined, disconnectSockets: () => undefined };
}

/** The openai SDK asker against `baseURL`, timing every call: the model's share of the workers' time. */
function timedAsker(db: Db, baseURL: string): { factory: (run: EvalRunRecord) => ModelAsker; inModelMs: () => number; reset: () => void } {
  let total = 0;
  const factory = (evalRun: EvalRunRecord): ModelAsker => {
    const asker = openAiAsker({ db, connection: { apiKey: 'bench', baseURL, timeoutMs: EVAL_TIMEOUT_MS, maxRetries: EVAL_MAX_ATTEMPTS - 1, prices: {} }, model: evalRun.model, evalRunId: evalRun.id, vision: visionOptions(getSettings(db)) });
    return {
      async ask(question, signal) {
        const start = performance.now();
        try {
          return await asker.ask(question, signal);
        } finally {
          total += ms(start);
        }
      },
    };
  };
  return { factory, inModelMs: () => total, reset: () => (total = 0) };
}

async function modelRuns(): Promise<void> {
  const db = openAndMigrate(join(dir, 'runs.sqlite'));
  generateDemoSplit({ dir: join(dir, 'split'), split: 'bench', charts: Math.ceil(questions / 2.5) + 20, seed: 5 });
  importSplit(db, join(dir, 'split'), { split: 'bench' });
  ensureSeedProposals(db);
  const ctx = context(db);
  const generation = new RunExecutor(ctx, engineFactory(ctx));
  const run = generation.createRun(RunConfigSchema.parse({ engine: 'offline', stage: 'items', items: questions, concurrency: 4 }), null);
  await generation.start(run.id);
  db.prepare("UPDATE hqa_items SET status = 'accepted'").run();

  const asker = timedAsker(db, fake.url);
  const executor = new EvalExecutor(ctx, asker.factory);
  const mode = process.env.BENCH_MODE === 'no_image' ? 'no_image' : 'hqa'; // BENCH_MODE=no_image: the no-image control, no chart work
  const measure = async (label: string) => {
    asker.reset();
    const evalRun = executor.createRun({ engine: 'openai', model: 'vision-bench', mode, concurrency }, null);
    const start = performance.now();
    await executor.start(evalRun.id);
    const wallMs = ms(start);
    const done = getEvalRun(db, evalRun.id);
    const n = done?.items_total ?? 0;
    const idealMs = (n * LATENCY_MS) / concurrency;
    console.log(`model run, ${label}: ${n} questions (${mode}), ${done?.items_answered} answered, ${done?.items_failed} failed, status ${done?.status}`);
    console.log(`  wall ${(wallMs / 1000).toFixed(2)} s, ideal ${(idealMs / 1000).toFixed(2)} s, ratio ${(wallMs / idealMs).toFixed(3)}`);
    console.log(`  share of worker time outside the model call (chart image, database): ${((1 - asker.inModelMs() / (wallMs * concurrency)) * 100).toFixed(1)}%`);
  };
  const charts = db.prepare('SELECT COUNT(DISTINCT chart_id) AS n FROM hqa_items').get() as { n: number };
  await measure(`${charts.n} charts without a PNG, drawn from their tables`);
  if (mode === 'hqa') {
    // ChartQA's charts come with their PNG: store one per chart, as an import would.
    const store = db.prepare('INSERT OR REPLACE INTO chart_images (chart_id, png, sha256) VALUES (?, ?, ?)');
    for (const { chart_id } of db.prepare('SELECT DISTINCT chart_id FROM hqa_items').all() as { chart_id: number }[]) {
      const image = await chartImage(db, chart_id);
      if (image) store.run(chart_id, image.png, createHash('sha256').update(image.png).digest('hex'));
    }
    await measure(`${charts.n} charts with their own PNG (as ChartQA's)`);
  }
  db.close();
}

async function conditionsRun(): Promise<void> {
  const itemCount = Number(process.env.BENCH_CONDITION_ITEMS ?? 2000);
  const db = openAndMigrate(join(dir, 'conditions.sqlite'));
  // The offline engine makes an item for under half the factual QAs it is given: ask for more, evaluate the first itemCount.
  generateDemoSplit({ dir: join(dir, 'split-conditions'), split: 'bench', charts: Math.ceil(itemCount / 1.1) + 20, seed: 7 });
  importSplit(db, join(dir, 'split-conditions'), { split: 'bench' });
  ensureSeedProposals(db);
  const ctx = context(db);
  const generation = new RunExecutor(ctx, engineFactory(ctx));
  const run = generation.createRun(RunConfigSchema.parse({ engine: 'offline', stage: 'items', items: Math.ceil(itemCount * 2.4), concurrency: 4 }), null);
  await generation.start(run.id);
  db.prepare("UPDATE hqa_items SET status = 'accepted' WHERE id IN (SELECT id FROM hqa_items ORDER BY id LIMIT ?)").run(itemCount);
  // ChartQA's charts come with their PNG: hqa and original send it, only the two drawn conditions draw.
  const store = db.prepare('INSERT OR REPLACE INTO chart_images (chart_id, png, sha256) VALUES (?, ?, ?)');
  for (const { chart_id } of db.prepare("SELECT DISTINCT chart_id FROM hqa_items WHERE status = 'accepted'").all() as { chart_id: number }[]) {
    const image = await chartImage(db, chart_id);
    if (image) store.run(chart_id, image.png, createHash('sha256').update(image.png).digest('hex'));
  }
  // What one drawing costs on this machine now (in-process, after warm-up): the run draws two per item on the render thread(s).
  const accepted = (db.prepare("SELECT id FROM hqa_items WHERE status = 'accepted' ORDER BY id LIMIT 50").all() as { id: number }[]).map((row) => row.id);
  const sample = accepted.map((id) => itemDrawingPlan(db, id).plan).find((plan) => plan.ok);
  let drawMs = Number.NaN;
  if (sample?.ok) {
    await renderChartPng(sample.edited, sample.chartType, sample.options);
    // As the run draws them: an item's original then its edited table, the second in the shape the first compiled
    // (render-chart.ts compileChart); a title of its own per pair, so no pair reuses another's.
    const drawStart = performance.now();
    for (let i = 0; i < 5; i++) {
      const options = { ...sample.options, title: `${sample.options.title ?? ''} ${i}` };
      await renderChartPng(sample.original, sample.chartType, options);
      await renderChartPng(sample.edited, sample.chartType, options);
    }
    drawMs = ms(drawStart) / 10;
  }
  // The model answers from a process of its own: its parsing of every request is not this loop's work.
  const vlm = await startFakeVlmProcess(LATENCY_MS);
  const asker = timedAsker(db, vlm.url);
  const executor = new EvalExecutor(ctx, asker.factory);
  // BENCH_CONDITIONS=hqa,original,no_image: a subset, e.g. the run without its drawn conditions, to see what drawing adds.
  const conditions = process.env.BENCH_CONDITIONS ? process.env.BENCH_CONDITIONS.split(',').map((name) => EvalModeSchema.parse(name.trim())) : [...EVAL_MODES];
  // CPU of the whole process (every thread: the loop, the render threads, libuv's encoding), so a run on a busy machine still shows what it cost.
  const cpuBefore = process.cpuUsage();
  const modelCpuBefore = vlm.cpuSeconds();
  // How late the loop takes up what is ready (a reply, a timer): every call waits on it twice or more.
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  const start = performance.now();
  const evalRun = executor.createRun({ engine: 'openai', model: 'vision-bench', mode: 'hqa', conditions, concurrency }, null);
  const snapshotMs = ms(start);
  await executor.start(evalRun.id);
  const wallMs = ms(start);
  loopDelay.disable();
  const cpu = process.cpuUsage(cpuBefore);
  const modelCpuAfter = vlm.cpuSeconds();
  const modelCpu = modelCpuBefore === null || modelCpuAfter === null ? 'not known here' : `${(modelCpuAfter - modelCpuBefore).toFixed(1)} s`;
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const done = getEvalRun(db, evalRun.id);
  const asked = done?.items_total ?? 0;
  const idealMs = Math.ceil(asked / concurrency) * LATENCY_MS;
  const items = (db.prepare("SELECT COUNT(*) AS n FROM hqa_items WHERE status = 'accepted'").get() as { n: number }).n;
  console.log(`conditions: one run of ${conditions.length} conditions over ${items} items: ${asked} questions asked, ${done?.items_skipped} skipped (cannot be drawn), ${done?.items_failed} failed, status ${done?.status}, concurrency ${concurrency}`);
  console.log(`  one drawing ${drawMs.toFixed(0)} ms here (${process.env.HQA_RENDER_THREADS ?? 1} render thread(s)); the drawings alone need ${((2 * items * drawMs) / 1000).toFixed(1)} s at that pace`);
  console.log(`  snapshot ${(snapshotMs / 1000).toFixed(2)} s (drawing plans included); wall ${(wallMs / 1000).toFixed(2)} s from creation, ideal ${(idealMs / 1000).toFixed(2)} s, ratio ${(wallMs / idealMs).toFixed(3)}`);
  // Where the workers' time went: in the model's call (its 100 ms, the request's own work, a busy loop's delay) or before it (the image).
  console.log(`  a call took ${(asker.inModelMs() / asked).toFixed(1)} ms on average (latency ${LATENCY_MS} ms); worker time outside the call (image, database): ${((1 - asker.inModelMs() / (wallMs * concurrency)) * 100).toFixed(1)}%`);
  console.log(`  event-loop delay: mean ${(loopDelay.mean / 1e6).toFixed(2)} ms, p99 ${(loopDelay.percentile(99) / 1e6).toFixed(1)} ms, max ${(loopDelay.max / 1e6).toFixed(0)} ms`);
  console.log(`  CPU ${(cpuMs / 1000).toFixed(1)} s over the run (this process, all threads; ${(cpuMs / wallMs).toFixed(2)} cores busy on average), ${(cpuMs / asked).toFixed(1)} ms a question; the model's process ${modelCpu}`);
  await vlm.stop();
  db.close();
}

async function scale(): Promise<void> {
  const db = openAndMigrate(join(dir, 'scale.sqlite'));
  importSplit(db, join(dir, 'split'), { split: 'bench' });
  const qa = db.prepare('SELECT id, chart_id, label FROM factual_qas LIMIT 1').get() as { id: number; chart_id: number; label: string };
  const insert = db.prepare(`INSERT INTO hqa_items (qa_id, chart_id, origin, assumption, question, answer, answer_type, rationale, affects_answer, program, verifier, status)
    VALUES (?, ?, 'human', 'Suppose x.', ?, ?, 'integer', 'r', 1, '1', '{}', 'accepted')`);
  db.transaction(() => {
    for (let i = 0; i < SCALE_ITEMS; i++) insert.run(qa.id, qa.chart_id, `Suppose x. Question number ${i}?`, String(i % 7 === 0 ? qa.label : i));
  })();
  const executor = new EvalExecutor(context(db));
  const rssBefore = process.memoryUsage().rss;
  let start = performance.now();
  const run = executor.createRun({ engine: 'factual-baseline', mode: 'hqa', concurrency: 4 }, null);
  const snapshotMs = ms(start);
  start = performance.now();
  await executor.start(run.id);
  const answerMs = ms(start);
  start = performance.now();
  const runs = listEvalRuns(db).map((r) => publicEvalRun(db, r));
  const listMs = ms(start);
  start = performance.now();
  const page = listResults(db, run.id, 'hqa', EvalResultsQuerySchema.parse({ outcome: 'wrong', page: 3000, page_size: 25 }));
  const pageMs = ms(start);
  start = performance.now();
  compareModels(runs);
  const compareMs = ms(start);
  const score = runs[0]?.score;
  console.log(`scale: ${SCALE_ITEMS.toLocaleString('en')} accepted items, factual baseline`);
  console.log(`  snapshot ${(snapshotMs / 1000).toFixed(2)} s, answered in ${(answerMs / 1000).toFixed(2)} s (${Math.round(SCALE_ITEMS / (answerMs / 1000)).toLocaleString('en')} questions/s)`);
  console.log(`  list runs ${listMs.toFixed(1)} ms, drill-down page 3,000 of "wrong" ${pageMs.toFixed(1)} ms (${page.total.toLocaleString('en')} rows), comparison ${compareMs.toFixed(2)} ms`);
  console.log(`  accuracy ${score?.relaxed_accuracy}%, RSS growth ${Math.round((process.memoryUsage().rss - rssBefore) / 2 ** 20)} MB`);
  db.close();
}

try {
  if (process.env.BENCH_PART !== 'conditions') {
    await modelRuns();
    if (!process.env.BENCH_MODE) await scale();
    await benchScoringRules();
    await benchScoreFormats();
    await benchJudge();
    await benchBatchRoundTrip();
  }
  await conditionsRun();
} finally {
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
}
