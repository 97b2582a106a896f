import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAndMigrate } from '../../db/database';
import { listLlmCalls } from '../../server/llm/llm-call-queries';
import { putSettings } from '../../server/settings/settings-queries';
import { runCli } from '../support/cli';
import { startFakeOpenAI, textReply, type FakeOpenAI, type RecordedRequest } from '../support/fake-openai';
import { MULTICHARTQA_DATA } from '../support/multichartqa-sample';

/**
 * Evaluation requests send their charts as extraction does (issue 37 point 4): scaled to the
 * `vision_max_side` setting through the one vision helper, at `vision_detail`, and each request's
 * `llm_calls` row records the images' estimated tokens and their cost — for `hqa eval` call by
 * call and for the request file `--batch-out` writes alike.
 */

/** An Our World in Data chart of the MultiChartQA sample, stored at 3400×2400. */
const OWID_PNG = join(MULTICHARTQA_DATA, 'owid_0_covid-exemplar-germany-2020', 'daily-covid-cases-deaths-7-day-ra.png');
const MAX_SIDE = 1000;
const PRICE = { input_per_mtok: 2.5, output_per_mtok: 10 };

const dir = mkdtempSync(join(tmpdir(), 'hqa-eval-vision-'));
const dbPath = join(dir, 'hqa.sqlite');
const images = join(dir, 'images');
const dataset = join(dir, 'export.json');
let fake: FakeOpenAI;

const item = (n: number) => ({
  id: `chq-00000${n}`,
  imgname: 'owid.png',
  chart_type: 'line',
  assumption: `Suppose ${n}.`,
  question: `Suppose ${n}. Which country leads?`,
  answer: 'Germany',
  answer_type: 'text',
  affects_answer: true,
  original: { query: `Original question ${n}?`, label: 'Germany', source: 'augmented' },
  proposal: null,
  review: { reviews: 1, accepts: 1, rejects: 0, adjudicated: false, corrected: false },
});

beforeAll(async () => {
  fake = await startFakeOpenAI({ defaultHandler: () => textReply('Answer: Germany') });
  mkdirSync(images);
  copyFileSync(OWID_PNG, join(images, 'owid.png'));
  writeFileSync(dataset, JSON.stringify({ name: 't', version: '1', created_at: 'x', stats: {}, items: [1, 2].map(item) }));
  const db = openAndMigrate(dbPath);
  try {
    putSettings(db, { vision_max_side: MAX_SIDE, vision_detail: 'high', price_table: { 'gpt-4o': PRICE } });
  } finally {
    db.close();
  }
});
afterAll(async () => {
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
});

const env = () => ({ OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.url });

/** The image parts of a request's user message. */
function imageParts(body: unknown): { url: string; detail?: string }[] {
  const content = (body as { messages: { content: unknown }[] }).messages[1]?.content;
  if (!Array.isArray(content)) return [];
  return content.flatMap((part: { type: string; image_url?: { url: string; detail?: string } }) => (part.type === 'image_url' && part.image_url ? [part.image_url] : []));
}
const decoded = (url: string) => sharp(Buffer.from(url.replace(/^data:image\/png;base64,/, ''), 'base64')).metadata();

// gpt-4o reads 1000×706 at high detail as it is (within 2048, short side under 768): 2×2 tiles, 85 + 170 each.
const GPT_4O_TOKENS = 85 + 4 * 170;

describe('evaluation requests carry their charts as the vision settings say', () => {
  it('hqa eval sends each chart scaled to vision_max_side at vision_detail, and records the images’ estimated tokens and cost per call', async () => {
    const out = join(dir, 'p.json');
    const before = fake.requests.length;
    const result = await runCli(['eval', '--dataset', dataset, '--model', 'gpt-4o', '--images', images, '--out', out, '--concurrency', '1'], { dbPath, env: env() });
    expect(result.status, result.stderr).toBe(0);
    const sent: RecordedRequest[] = fake.requests.slice(before);
    expect(sent).toHaveLength(2);
    const [first] = imageParts(sent[0]?.body);
    if (!first) throw new Error('no image sent');
    expect(first.detail).toBe('high');
    expect(await decoded(first.url)).toMatchObject({ width: MAX_SIDE, height: 706 });
    // The same chart and settings give the same bytes: a prompt cache keyed on them still serves.
    expect(imageParts(sent[1]?.body)).toEqual([first]);
    // What a request weighs: the stored chart's base64 against the scaled one's.
    const storedBytes = Math.ceil(statSync(OWID_PNG).size / 3) * 4;
    expect(first.url.length).toBeLessThan(storedBytes / 2);

    const db = openAndMigrate(dbPath);
    try {
      const calls = listLlmCalls(db).filter((call) => call.purpose === 'evaluation');
      expect(calls).toHaveLength(2);
      for (const call of calls) {
        expect(call).toMatchObject({ images: 1, image_tokens: GPT_4O_TOKENS });
        expect(call.image_cost).toBeCloseTo((GPT_4O_TOKENS * PRICE.input_per_mtok) / 1e6, 12);
      }
    } finally {
      db.close();
    }
    expect(result.stdout).toContain(`(of which images ~${2 * GPT_4O_TOKENS} ~$`);
  });

  it('hqa eval --no-image sends and records no image', async () => {
    const before = fake.requests.length;
    const result = await runCli(['eval', '--dataset', dataset, '--model', 'gpt-4o', '--no-image', '--out', join(dir, 'n.json'), '--json'], { dbPath, env: env() });
    expect(result.status, result.stderr).toBe(0);
    for (const request of fake.requests.slice(before)) expect(imageParts(request.body)).toEqual([]);
    expect(JSON.parse(result.stdout)).toMatchObject({ image_tokens: 0, image_cost: 0 });
  });

  it('hqa eval --batch-out writes the same scaled image, at the same detail, as a call on its own sends', async () => {
    const file = join(dir, 'batch.jsonl');
    const result = await runCli(['eval', '--dataset', dataset, '--model', 'gpt-4o', '--images', images, '--out', join(dir, 'b.json'), '--batch-out', file], { dbPath, env: env() });
    expect(result.status, result.stderr).toBe(0);
    const lines = readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { body: unknown });
    expect(lines).toHaveLength(2);
    const [image] = imageParts(lines[0]?.body);
    if (!image) throw new Error('no image in the batch line');
    expect(image.detail).toBe('high');
    const { width, height } = await decoded(image.url);
    expect(Math.max(width ?? 0, height ?? 0)).toBe(MAX_SIDE);
    const sentAlone = imageParts(fake.requests.find((request) => imageParts(request.body).length > 0)?.body);
    expect([image]).toEqual(sentAlone);
  });
});
