import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { openAndMigrate } from '../db/database';
import { REASONING_FAMILIES } from '../shared/eval/charxiv-metrics';
import { SettingsSchema } from '../shared/settings';
import { createJudgeGrader, type JudgeRequest } from '../server/eval/judge-grader';
import { jsonReply, startFakeOpenAI } from '../test/support/fake-openai';

/**
 * LLM-judge grading throughput (CharXiv-style scoring): N distinct answers graded through the
 * real openai SDK against the fake server answering each request after a fixed 100 ms, at the
 * given concurrency. Prints wall time against the ideal (N × 0.1 s / concurrency) as a ratio —
 * what the grader's own work (rendering, parsing, the llm_calls row and the cache row per answer)
 * adds to waiting for the judge — and the re-score of the same answers from the cache.
 *   npx tsx bench/evaluation-judge.ts [answers] [concurrency]
 */
const LATENCY_MS = 100;
const JUDGE_MODEL = 'gpt-4o';

export async function benchJudge(answers = 1000, concurrency = 8): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'hqa-bench-judge-'));
  const fake = await startFakeOpenAI({ defaultHandler: () => jsonReply({ extracted_answer: '42', score: 1 }, { delayMs: LATENCY_MS }) });
  const db = openAndMigrate(join(dir, 'judge.sqlite'));
  try {
    const settings = SettingsSchema.parse({});
    const connection = { apiKey: 'bench', baseURL: fake.url, timeoutMs: settings.request_timeout_ms, maxRetries: settings.max_retries, prices: settings.price_table };
    const requests: JudgeRequest[] = Array.from({ length: answers }, (_, i) => ({
      id: String(i),
      family: REASONING_FAMILIES[i % REASONING_FAMILIES.length] ?? 'number',
      question: `What is the value of series ${i} at t = ${i % 50}?`,
      groundTruth: String(i % 97),
      response: `Reading the chart, the value is about ${i % 89}.`,
    }));
    const grade = async () => {
      const grader = createJudgeGrader({ db, connection, model: JUDGE_MODEL, concurrency });
      const started = performance.now();
      const cpuStarted = process.cpuUsage();
      const { totals } = await grader.grade(requests);
      const cpu = process.cpuUsage(cpuStarted);
      return { wallMs: performance.now() - started, cpuMs: (cpu.user + cpu.system) / 1000, totals };
    };

    const first = await grade();
    const idealMs = (answers * LATENCY_MS) / concurrency;
    console.log(`judge grading: ${answers} answers at ${LATENCY_MS} ms latency, concurrency ${concurrency}`);
    console.log(
      `  graded in ${(first.wallMs / 1000).toFixed(2)} s (ideal ${(idealMs / 1000).toFixed(2)} s): ratio to ideal ${(first.wallMs / idealMs).toFixed(3)}; ` +
        `CPU ${first.cpuMs.toFixed(0)} ms (${((first.cpuMs / answers) * 1000).toFixed(0)} µs per answer); ${first.totals.attempts} calls, $${first.totals.cost.toFixed(4)}`,
    );
    const again = await grade();
    console.log(`  re-scored from the cache in ${again.wallMs.toFixed(0)} ms: ${again.totals.cached} cached, ${again.totals.attempts} calls`);
  } finally {
    db.close();
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await benchJudge(Number(process.argv[2] ?? 1000), Number(process.argv[3] ?? 8));
}
