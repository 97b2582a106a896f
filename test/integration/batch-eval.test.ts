import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { errorReply, startFakeOpenAI, textReply, type FakeOpenAI } from '../support/fake-openai';
import { openAndMigrate } from '../../db/database';
import { callCost } from '../../server/llm/cost';
import { listLlmCalls } from '../../server/llm/llm-call-queries';
import { SettingsSchema } from '../../shared/settings';
import { runCli } from '../support/cli';
import { CHARTQA_EXTRA } from '../support/paths';

const dir = mkdtempSync(join(tmpdir(), 'hqa-batch-eval-'));
const dbPath = join(dir, 'workbench.sqlite');
const images = join(dir, 'images');
let fake: FakeOpenAI;

const item = (id: string) => ({
  id,
  imgname: 'two_col_41347.png',
  chart_type: 'vertical_bar',
  assumption: `Suppose ${id}.`,
  question: `Suppose ${id}. Which country leads?`,
  answer: 'China',
  answer_type: 'text',
  affects_answer: true,
  original: { query: `Original question ${id}?`, label: 'China', source: 'augmented' },
  proposal: null,
  review: { reviews: 1, accepts: 1, rejects: 0, adjudicated: false, corrected: false },
});

/** A dataset of its own per test: the fake's lost lines are named by id. */
function dataset(name: string, ids: string[]): string {
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify({ name, version: '1', created_at: 'x', stats: {}, items: ids.map(item) }));
  return file;
}

const PredictionsSchema = z.array(z.object({ id: z.string(), prediction: z.string().nullable(), raw: z.string() }));
const readPredictions = (file: string) => PredictionsSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
const env = () => ({ OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.url });
const calls = () => {
  const db = openAndMigrate(dbPath);
  try {
    return listLlmCalls(db);
  } finally {
    db.close();
  }
};

beforeAll(async () => {
  // The answer names the question, so a result mapped to the wrong item would show.
  fake = await startFakeOpenAI({
    defaultHandler: (chat) => {
      const text = JSON.stringify(chat.messages.at(-1)?.content ?? '');
      return textReply(`Reading the chart.\nAnswer: ${/Suppose (chq-\d+)/.exec(text)?.[1] ?? 'none'}`);
    },
  });
  mkdirSync(images);
  copyFileSync(join(CHARTQA_EXTRA, 'png', 'two_col_41347.png'), join(images, 'two_col_41347.png'));
});
afterAll(async () => {
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('hqa eval --batch', () => {
  it('sends the per-call request bodies as one batch and writes the very predictions file the per-call path writes', async () => {
    fake.batches.configure({ pollsToComplete: 3, shuffle: true });
    const data = dataset('same', ['chq-000101', 'chq-000102', 'chq-000103']);
    const before = fake.requests.length;
    const single = await runCli(['eval', '--dataset', data, '--model', 'gpt-4o-mini', '--images', images, '--out', join(dir, 'single.json'), '--concurrency', '1', '--json'], { dbPath, env: env() });
    expect(single.status, single.stderr).toBe(0);
    const perCall = fake.requests.slice(before).filter((r) => r.path === '/v1/chat/completions').map((r) => r.body);

    const created = fake.batches.created();
    const out = join(dir, 'batch.json');
    const batch = await runCli(['eval', '--dataset', data, '--model', 'gpt-4o-mini', '--images', images, '--out', out, '--batch', '--batch-poll', '5', '--json'], { dbPath, env: env() });
    expect(batch.status, batch.stderr).toBe(0);
    expect(fake.batches.created()).toBe(created + 1);
    const lines = fake.batches.lines.slice(-3);
    expect(lines.map((line) => line.custom_id)).toEqual(['chq-000101', 'chq-000102', 'chq-000103']);
    expect(lines.map((line) => line.body)).toEqual(perCall);
    // The fake answered them shuffled; the file is in dataset order, byte for byte the per-call one.
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(join(dir, 'single.json'), 'utf8'));
    expect(readPredictions(out).map((p) => p.prediction)).toEqual(['chq-000101', 'chq-000102', 'chq-000103']);
    expect(existsSync(`${out}.batch.json`)).toBe(false);
  });

  it('records every result at the batch price, names a failed and a missing line, and exits 2', async () => {
    fake.batches.configure({ pollsToComplete: 2 });
    fake.batches.omit('chq-000203');
    fake.script(textReply('Answer: 7'), errorReply(400, 'image too large', { code: 'invalid_image' }));
    const data = dataset('failing', ['chq-000201', 'chq-000202', 'chq-000203']);
    const out = join(dir, 'failing-out.json');
    const since = calls().length;
    const result = await runCli(['eval', '--dataset', data, '--model', 'gpt-4o-mini', '--no-image', '--out', out, '--batch', '--batch-poll', '5', '--json'], { dbPath, env: env() });
    expect(result.status, result.stderr).toBe(2);
    const report = z
      .object({ asked: z.number(), failed: z.number(), cost: z.number(), errors: z.array(z.object({ id: z.string(), error: z.string() })) })
      .parse(JSON.parse(result.stdout));
    expect(report).toMatchObject({ asked: 1, failed: 2 });
    expect(report.errors).toEqual([
      { id: 'chq-000202', error: 'HTTP 400: invalid_image: image too large' },
      { id: 'chq-000203', error: expect.stringMatching(/^missing from the batch results/) },
    ]);
    expect(readPredictions(out)).toEqual([{ id: 'chq-000201', prediction: '7', raw: 'Answer: 7' }]);

    const rows = calls().slice(since);
    expect(rows.map((r) => r.outcome)).toEqual(['ok', 'error', 'error']);
    expect(rows.every((r) => r.batch_id !== null && r.purpose === 'evaluation')).toBe(true);
    const ok = rows[0];
    if (!ok) throw new Error('no row');
    const full = callCost('gpt-4o-mini', ok, SettingsSchema.parse({}).price_table).cost;
    expect(full).toBeGreaterThan(0);
    expect(ok.cost).toBeCloseTo(full * 0.5, 12);
    expect(report.cost).toBeCloseTo(full * 0.5, 6);
  });

  it('re-attaches to its batch after being killed mid-batch: no second batch is created', async () => {
    fake.batches.configure({ pollsToComplete: 1_000_000 });
    const data = dataset('killed', ['chq-000301', 'chq-000302']);
    const out = join(dir, 'killed-out.json');
    const created = fake.batches.created();
    const child = spawn(resolve('node_modules/.bin/tsx'), [resolve('server/cli/main.ts'), 'eval', '--dataset', data, '--model', 'gpt-4o-mini', '--no-image', '--out', out, '--batch', '--batch-poll', '10'], {
      env: { ...process.env, HQA_DB: dbPath, HQA_LOG_LEVEL: 'silent', ...env() },
      stdio: 'ignore',
      // Its own process group: tsx runs the CLI in a child node process, which a kill of tsx alone would leave running.
      detached: true,
    });
    const exited = new Promise<void>((done) => child.once('exit', () => done()));
    try {
      await expect.poll(() => fake.batches.created() === created + 1 && existsSync(`${out}.batch.json`), { timeout: 30_000 }).toBe(true);
      // Polled at least once: it is waiting on the batch when it dies.
      await expect.poll(() => fake.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/v1/batches/')).length > 0, { timeout: 30_000 }).toBe(true);
    } finally {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      await exited;
    }
    expect(existsSync(out)).toBe(false);

    fake.batches.configure({ pollsToComplete: 1 });
    const again = await runCli(['eval', '--dataset', data, '--model', 'gpt-4o-mini', '--no-image', '--out', out, '--batch', '--batch-poll', '5'], { dbPath, env: env() });
    expect(again.status, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/re-attaching to batch batch-fake-\d+/);
    expect(fake.batches.created()).toBe(created + 1);
    expect(readPredictions(out).map((p) => p.prediction)).toEqual(['chq-000301', 'chq-000302']);
    expect(existsSync(`${out}.batch.json`)).toBe(false);
  });

  it('refuses a sidecar of another model, naming the file and the batch', async () => {
    const data = dataset('other-model', ['chq-000401']);
    const out = join(dir, 'other-out.json');
    writeFileSync(`${out}.batch.json`, JSON.stringify({ remote_id: 'batch-x', model: 'gpt-4o', ids: ['chq-000401'] }));
    const result = await runCli(['eval', '--dataset', data, '--model', 'gpt-4o-mini', '--no-image', '--out', out, '--batch'], { dbPath, env: env() });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/other-out\.json\.batch\.json: batch batch-x asks gpt-4o, not gpt-4o-mini/);
  });
});

describe('hqa eval --batch-out / --batch-in (vllm run-batch)', () => {
  it('writes the request JSONL and says how to run it, then reads a vLLM output file back into the same predictions', async () => {
    const data = dataset('vllm', ['chq-000501', 'chq-000502', 'chq-000503']);
    const requests = join(dir, 'vllm-in.jsonl');
    const out = join(dir, 'vllm-out.json');
    const written = await runCli(['eval', '--dataset', data, '--model', 'Qwen/Qwen2-VL-7B', '--images', images, '--out', out, '--batch-out', requests], { dbPath });
    expect(written.status, written.stderr).toBe(0);
    expect(written.stdout).toContain(`vllm run-batch -i ${requests} -o OUT`);
    expect(written.stdout).toContain('--batch-in OUT');
    const lines = readFileSync(requests, 'utf8')
      .trim()
      .split('\n')
      .map((line) => z.object({ custom_id: z.string(), method: z.literal('POST'), url: z.literal('/v1/chat/completions'), body: z.looseObject({ model: z.string() }) }).parse(JSON.parse(line)));
    expect(lines.map((l) => l.custom_id)).toEqual(['chq-000501', 'chq-000502', 'chq-000503']);
    expect(lines[0]?.body.model).toBe('Qwen/Qwen2-VL-7B');
    expect(JSON.stringify(lines[0]?.body)).toContain('data:image/png;base64,');

    // What vllm/entrypoints/openai/run_batch.py writes: BatchRequestOutput lines, in its own order.
    const vllmLine = (customId: string, content: string) => ({
      id: `vllm-${customId}`,
      custom_id: customId,
      response: {
        status_code: 200,
        request_id: `vllm-batch-${customId}`,
        body: {
          id: `chatcmpl-${customId}`,
          object: 'chat.completion',
          created: 1,
          model: 'Qwen/Qwen2-VL-7B',
          choices: [{ index: 0, message: { role: 'assistant', content, tool_calls: [] }, logprobs: null, finish_reason: 'stop', stop_reason: null }],
          usage: { prompt_tokens: 120, total_tokens: 125, completion_tokens: 5 },
          prompt_logprobs: null,
        },
      },
      error: null,
    });
    const output = join(dir, 'vllm-out.jsonl');
    writeFileSync(output, [vllmLine('chq-000503', 'Answer: Japan'), vllmLine('chq-000501', 'Answer: China.'), vllmLine('chq-999999', 'Answer: stray')].map((l) => JSON.stringify(l)).join('\n') + '\n');
    const read = await runCli(['eval', '--dataset', data, '--model', 'Qwen/Qwen2-VL-7B', '--out', out, '--batch-in', output, '--json'], { dbPath });
    expect(read.status, read.stderr).toBe(2);
    const report = z.object({ asked: z.number(), failed: z.number(), prompt_tokens: z.number(), errors: z.array(z.object({ id: z.string(), error: z.string() })) }).parse(JSON.parse(read.stdout));
    expect(report).toMatchObject({ asked: 2, failed: 1, prompt_tokens: 240 });
    expect(report.errors).toEqual([
      { id: 'chq-000502', error: `missing from the batch results (${output})` },
      { id: 'chq-999999', error: `in ${output} but not in the dataset ${data}` },
    ]);
    expect(readPredictions(out)).toEqual([
      { id: 'chq-000501', prediction: 'China', raw: 'Answer: China.' },
      { id: 'chq-000503', prediction: 'Japan', raw: 'Answer: Japan' },
    ]);

    // The rerun writes only what is still missing.
    const again = await runCli(['eval', '--dataset', data, '--model', 'Qwen/Qwen2-VL-7B', '--images', images, '--out', out, '--batch-out', requests, '--json'], { dbPath });
    expect(JSON.parse(again.stdout)).toMatchObject({ requests: 1, skipped: 2 });
  });

  it('stores the good answers of a file holding an older vLLM error line, and names that line by custom_id with its reason', async () => {
    const data = dataset('older-vllm', ['chq-000601', 'chq-000602', 'chq-000603']);
    const out = join(dir, 'older-vllm-out.json');
    const answer = (customId: string, content: string) => ({
      id: `vllm-${customId}`,
      custom_id: customId,
      response: { status_code: 200, request_id: `vllm-batch-${customId}`, body: { object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }], usage: { prompt_tokens: 50, completion_tokens: 4, total_tokens: 54 } } },
      error: null,
    });
    // An older run_batch.py: the status in the response, and in `error` its flat ErrorResponse (integer code).
    const reason = 'At most 1 image(s) may be provided in one request.';
    const refused = { id: 'vllm-chq-000602', custom_id: 'chq-000602', response: { status_code: 400, request_id: 'vllm-batch-chq-000602', body: null }, error: { object: 'error', message: reason, type: 'BadRequestError', param: null, code: 400 } };
    const output = join(dir, 'older-vllm-out.jsonl');
    writeFileSync(output, [answer('chq-000601', 'Answer: China'), refused, answer('chq-000603', 'Answer: Japan')].map((l) => JSON.stringify(l)).join('\n') + '\n');

    const read = await runCli(['eval', '--dataset', data, '--model', 'Qwen/Qwen2-VL-7B', '--out', out, '--batch-in', output], { dbPath });
    expect(read.status, read.stderr).toBe(2);
    expect(read.stderr).toContain(`error: item chq-000602: HTTP 400: ${reason}`);
    expect(read.stdout).toMatch(/^answered 2, skipped 0 already answered, 1 failed;/);
    expect(readPredictions(out)).toEqual([
      { id: 'chq-000601', prediction: 'China', raw: 'Answer: China' },
      { id: 'chq-000603', prediction: 'Japan', raw: 'Answer: Japan' },
    ]);
  });
});
