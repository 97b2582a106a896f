import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { runEval } from '../server/cli/eval-command';
import { startFakeOpenAI, textReply } from '../test/support/fake-openai';

/** Questions in the round trip: a large evaluation's order of magnitude. */
const QUESTIONS = 2_000;

/**
 * Batch mode's own overhead, end to end: N questions → request JSONL → upload and create at the
 * fake Batch API (completing at its first poll, so no waiting is measured) → download → results
 * matched by custom_id → batch-priced llm_calls rows → the predictions file. Printed in ms and
 * per question; the provider's hours are not ours to measure.
 */
export async function benchBatchRoundTrip(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-batch-'));
  const fake = await startFakeOpenAI({ defaultHandler: () => textReply('Reading the chart.\nAnswer: 42'), batches: { pollsToComplete: 1 } });
  const saved = { db: process.env.HQA_DB, key: process.env.OPENAI_API_KEY, url: process.env.OPENAI_BASE_URL };
  const write = process.stdout.write.bind(process.stdout);
  try {
    const items = Array.from({ length: QUESTIONS }, (_, n) => ({
      id: `chq-${String(n + 1).padStart(6, '0')}`,
      imgname: 'x.png',
      question: `Suppose the value of row ${n} doubled. What is the total?`,
      original: { query: `What is the total of row ${n}?`, label: '21', source: 'human' },
    }));
    const dataset = join(dir, 'export.json');
    writeFileSync(dataset, JSON.stringify({ version: '1', items }));
    process.env.HQA_DB = join(dir, 'bench.sqlite');
    process.env.OPENAI_API_KEY = 'bench';
    process.env.OPENAI_BASE_URL = fake.url;
    const started = performance.now();
    // The command's JSON report is not the bench's output.
    process.stdout.write = () => true;
    const code = await runEval({ dataset, model: 'gpt-4o-mini', out: join(dir, 'p.json'), image: false, batch: true, batchPoll: '1', json: true });
    process.stdout.write = write;
    const ms = performance.now() - started;
    if (code !== 0) throw new Error(`hqa eval --batch exited ${code}`);
    write(`batch round trip: ${QUESTIONS} questions → JSONL → fake batch → predictions in ${ms.toFixed(0)} ms (${((ms / QUESTIONS) * 1000).toFixed(0)} µs per question; ${fake.batches.created()} batch)\n`);
  } finally {
    process.stdout.write = write;
    // Assigning undefined would store the string "undefined".
    for (const [name, value] of [['HQA_DB', saved.db], ['OPENAI_API_KEY', saved.key], ['OPENAI_BASE_URL', saved.url]] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await benchBatchRoundTrip();
