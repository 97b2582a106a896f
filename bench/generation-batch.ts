import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { GenerateReportSchema } from '../shared/api/runs';
import { runGenerate } from '../server/cli/generate-command';
import { runImport } from '../server/cli/import-command';
import { generateDemoSplit } from '../server/demo/demo-split';
import { hqaModel } from '../test/support/fake-hqa-model';
import { startFakeOpenAI } from '../test/support/fake-openai';

/** Items in the round trip: a large generation run's order of magnitude. */
const ITEMS = 1_000;
/** Demo charts to draw them from (several questions each). */
const CHARTS = 600;

/**
 * Batch generation's own overhead, end to end: Stage 1 (9 chart types) and Stage 2 (N items),
 * each stage's pending tasks → request JSONL → upload and create at the fake Batch API
 * (completing at its first poll, so no waiting is measured) → download → results matched by
 * custom_id → parsed, verified and stored with batch-priced llm_calls rows. The fake answers
 * every line itself inside the poll, so its model time is in the figure too.
 */
export async function benchGenerationBatch(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-gen-batch-'));
  const fake = await startFakeOpenAI({ defaultHandler: hqaModel({ proposals: (call) => [`Multiply the value of category number ${call * 7919} by ${call + 2}`] }), batches: { pollsToComplete: 1 } });
  const saved = { db: process.env.HQA_DB, key: process.env.OPENAI_API_KEY, url: process.env.OPENAI_BASE_URL, log: process.env.HQA_LOG_LEVEL };
  const write = process.stdout.write.bind(process.stdout);
  let report = '';
  try {
    process.env.HQA_DB = join(dir, 'bench.sqlite');
    process.env.HQA_LOG_LEVEL = 'silent';
    generateDemoSplit({ dir: join(dir, 'demo'), split: 'demo', charts: CHARTS, seed: 1 });
    process.stdout.write = () => true;
    if (runImport(join(dir, 'demo'), { json: true }) !== 0) throw new Error('import failed');
    process.env.OPENAI_API_KEY = 'bench';
    process.env.OPENAI_BASE_URL = fake.url;
    process.stdout.write = (chunk: string | Uint8Array) => ((report += String(chunk)), true);
    const started = performance.now();
    const code = await runGenerate({ engine: 'openai', batch: true, batchPoll: '1', items: String(ITEMS), model: 'gpt-4o-mini', json: true });
    const ms = performance.now() - started;
    process.stdout.write = write;
    if (code !== 0) throw new Error(`hqa generate --batch exited ${code}: ${report}`);
    const run = GenerateReportSchema.parse(JSON.parse(report));
    write(
      `batch generation round trip: ${run.llm_calls} requests in ${fake.batches.created()} batches → ${run.proposals_created} proposals, ${run.items_created} items (${run.items_failed} failed) in ${ms.toFixed(0)} ms (${((ms / Math.max(1, run.llm_calls)) * 1000).toFixed(0)} µs per request)\n`,
    );
  } finally {
    process.stdout.write = write;
    // Assigning undefined would store the string "undefined".
    for (const [name, value] of [['HQA_DB', saved.db], ['OPENAI_API_KEY', saved.key], ['OPENAI_BASE_URL', saved.url], ['HQA_LOG_LEVEL', saved.log]] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await benchGenerationBatch();
