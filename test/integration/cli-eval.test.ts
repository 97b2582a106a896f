import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { serverErrorReply, startFakeOpenAI, textReply, type FakeOpenAI, type RecordedRequest } from '../support/fake-openai';
import { openAndMigrate } from '../../db/database';
import { listLlmCalls } from '../../server/llm/llm-call-queries';
import { runCli } from '../support/cli';
import { CHARTQA_EXTRA } from '../support/paths';

const dir = mkdtempSync(join(tmpdir(), 'hqa-eval-'));
const dbPath = join(dir, 'none.sqlite');
const images = join(dir, 'images');
const dataset = join(dir, 'export.json');
let fake: FakeOpenAI;

const item = (n: number) => ({
  id: `chq-00000${n}`,
  imgname: 'two_col_41347.png',
  chart_type: 'vertical_bar',
  assumption: `Suppose ${n}.`,
  question: `Suppose ${n}. Which country leads?`,
  answer: 'China',
  answer_type: 'text',
  affects_answer: true,
  original: { query: `Original question ${n}?`, label: 'China', source: 'augmented' },
  proposal: null,
  review: { reviews: 1, accepts: 1, rejects: 0, adjudicated: false, corrected: false },
});

const PredictionsSchema = z.array(z.object({ id: z.string(), prediction: z.string().nullable(), raw: z.string() }));

beforeAll(async () => {
  fake = await startFakeOpenAI({ defaultHandler: () => textReply('The bar is tallest.\nAnswer: China.') });
  mkdirSync(images);
  copyFileSync(join(CHARTQA_EXTRA, 'png', 'two_col_41347.png'), join(images, 'two_col_41347.png'));
  writeFileSync(dataset, JSON.stringify({ name: 't', version: '1', created_at: 'x', stats: {}, items: [1, 2, 3].map(item) }));
});
afterAll(async () => {
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
});

const env = () => ({ OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.url });
const userParts = (r: RecordedRequest) => JSON.stringify((r.body as { messages: unknown[] }).messages[1]);

describe('hqa eval', () => {
  it('asks every question with the chart as base64, extracts answers, and resumes', async () => {
    const out = join(dir, 'p.json');
    const before = fake.requests.length;
    const result = await runCli(['eval', '--dataset', dataset, '--model', 'vision-1', '--images', images, '--out', out, '--json'], { dbPath, env: env() });
    expect(result.status, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ asked: 3, skipped: 0, failed: 0 });
    const predictions = PredictionsSchema.parse(JSON.parse(readFileSync(out, 'utf8')));
    expect(predictions.map((p) => [p.id, p.prediction])).toEqual([
      ['chq-000001', 'China'],
      ['chq-000002', 'China'],
      ['chq-000003', 'China'],
    ]);
    const sent = fake.requests.slice(before);
    expect(sent).toHaveLength(3);
    const png = readFileSync(join(images, 'two_col_41347.png')).toString('base64');
    for (const request of sent) expect(userParts(request)).toContain(`data:image/png;base64,${png.slice(0, 40)}`);
    expect(sent.map(userParts).join()).toContain('Suppose 2. Which country leads?');

    // Drop one answer: the rerun asks only that one.
    writeFileSync(out, JSON.stringify(predictions.slice(0, 2)));
    const again = await runCli(['eval', '--dataset', dataset, '--model', 'vision-1', '--images', images, '--out', out, '--json'], { dbPath, env: env() });
    expect(JSON.parse(again.stdout)).toMatchObject({ asked: 1, skipped: 2 });
    expect(PredictionsSchema.parse(JSON.parse(readFileSync(out, 'utf8')))).toHaveLength(3);
  });

  it('sends no image with --no-image, and the original questions with --original', async () => {
    const before = fake.requests.length;
    const result = await runCli(['eval', '--dataset', dataset, '--model', 'vision-1', '--no-image', '--original', '--out', join(dir, 'o.json'), '--json'], {
      dbPath,
      env: env(),
    });
    expect(result.status, result.stderr).toBe(0);
    const sent = fake.requests.slice(before).map(userParts).join();
    expect(sent).not.toContain('image_url');
    expect(sent).toContain('Original question 1?');
    expect(sent).not.toContain('Suppose 1.');
  });

  it('retries a 500 and names missing inputs', async () => {
    fake.script(serverErrorReply());
    const result = await runCli(['eval', '--dataset', dataset, '--model', 'vision-1', '--no-image', '--out', join(dir, 'r.json'), '--concurrency', '1', '--json'], {
      dbPath,
      env: env(),
    });
    expect(JSON.parse(result.stdout)).toMatchObject({ asked: 3, failed: 0 });
    const noImages = await runCli(['eval', '--dataset', dataset, '--model', 'm', '--out', join(dir, 'x.json')], { dbPath, env: env() });
    expect(noImages.stderr).toMatch(/--images: give the folder/);
    const noKey = await runCli(['eval', '--dataset', dataset, '--model', 'm', '--no-image', '--out', join(dir, 'x.json')], { dbPath });
    expect(noKey.stderr).toMatch(/OPENAI_API_KEY is not set/);
  });

  it('records every attempt in the workbench database: purpose evaluation, the retried one too, with its cost', async () => {
    const model = 'gpt-4o-mini';
    const since = () => {
      const db = openAndMigrate(dbPath);
      try {
        return listLlmCalls(db);
      } finally {
        db.close();
      }
    };
    const before = since().length;
    fake.script(serverErrorReply());
    const result = await runCli(['eval', '--dataset', dataset, '--model', model, '--no-image', '--out', join(dir, 'c.json'), '--concurrency', '1', '--json'], {
      dbPath,
      env: env(),
    });
    expect(result.status, result.stderr).toBe(0);
    const report = z.object({ prompt_tokens: z.number(), cost: z.number() }).parse(JSON.parse(result.stdout));
    const calls = since().slice(before);
    expect(calls.map((c) => [c.attempt, c.outcome])).toEqual([
      [1, 'error'],
      [2, 'ok'],
      [1, 'ok'],
      [1, 'ok'],
    ]);
    for (const call of calls) expect(call).toMatchObject({ purpose: 'evaluation', model, template: 'evaluation', run_id: null, eval_run_id: null });
    expect(calls.reduce((sum, c) => sum + c.prompt_tokens, 0)).toBe(report.prompt_tokens);
    expect(report.cost).toBeGreaterThan(0);
    // The report rounds its cost to a millionth.
    expect(calls.reduce((sum, c) => sum + c.cost, 0)).toBeCloseTo(report.cost, 5);
  });
});
