import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openAndMigrate, type Db } from '../../db/database';
import { errorReply, lastUserText, startFakeOpenAI, textReply, type FakeOpenAI } from '../../test/support/fake-openai';
import { batchClient } from './batch-api';
import { getBatch, type BatchState } from './batch-queries';
import { awaitBatch, finishBatch, recordBatchCall, sendBatch, type BatchTarget } from './batch-runner';
import { listLlmCalls } from './llm-call-queries';

let fake: FakeOpenAI;
let dir: string;
let db: Db;
const PRICES = { 'm-1': { input_per_mtok: 1_000_000, output_per_mtok: 2_000_000 } };

beforeAll(async () => {
  fake = await startFakeOpenAI({ defaultHandler: (chat) => textReply(`Answer: ${lastUserText(chat)}`) });
});
afterAll(() => fake.close());
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'batch-runner-'));
  db = openAndMigrate(join(dir, 'w.db'));
  fake.batches.configure({ pollsToComplete: 3, shuffle: true });
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

function target(overrides: Partial<BatchTarget> = {}): BatchTarget {
  return {
    db,
    api: batchClient({ apiKey: 'k', baseURL: fake.url }, 5_000),
    purpose: 'evaluation',
    model: 'm-1',
    template: { name: 'evaluation', hash: 'h' },
    prices: PRICES,
    discount: 0.5,
    pollMs: 1,
    ...overrides,
  };
}

const requests = (ids: string[]) => ids.map((id) => ({ customId: id, body: { messages: [{ role: 'user' as const, content: `q-${id}` }] } }));

describe('batch runner against the fake Batch API', () => {
  it('sends one batch, stores each poll, maps the shuffled results by custom_id and costs them at the batch price', async () => {
    const states: BatchState[] = [];
    const t = target({ onProgress: (batch) => states.push(batch.state) });
    const before = fake.batches.created();
    const record = await sendBatch(t, requests(['a', 'b', 'c', 'd']), 'test.jsonl');
    expect(fake.batches.created()).toBe(before + 1);
    expect(fake.batches.lines.slice(-4).map((line) => line.body)).toEqual(requests(['a', 'b', 'c', 'd']).map((r) => ({ ...r.body, model: 'm-1' })));

    const outcome = await awaitBatch(t, record, ['a', 'b', 'c', 'd']);
    expect(outcome).not.toBeNull();
    if (!outcome) return;
    expect(states).toEqual(['submitted', 'in_progress', 'in_progress', 'downloading']);
    for (const id of ['a', 'b', 'c', 'd']) expect(outcome.mapped.results.get(id)).toMatchObject({ ok: true, content: `Answer: q-${id}` });
    expect(outcome.batch).toMatchObject({ requests_total: 4, requests_completed: 4, requests_failed: 0, remote_status: 'completed' });

    const result = outcome.mapped.results.get('a');
    if (!result?.ok) throw new Error('a failed');
    const call = recordBatchCall(t, outcome.batch, result);
    finishBatch(t, outcome.batch, outcome.problem);
    const [row] = listLlmCalls(db).filter((c) => c.id === call.callId);
    const full = result.tokens.prompt_tokens * 1 + result.tokens.completion_tokens * 2;
    expect(row).toMatchObject({ batch_id: record.id, purpose: 'evaluation', outcome: 'ok', raw_output: 'Answer: q-a' });
    expect(row?.cost).toBeCloseTo(full / 2, 9);
    expect(getBatch(db, record.id)?.state).toBe('done');
  });

  it('names a line the model failed and a line missing from both files', async () => {
    fake.batches.omit('lost');
    fake.script(textReply('Answer: 1'), errorReply(400, 'unsupported image', { code: 'invalid_image' }));
    const t = target();
    const record = await sendBatch(t, requests(['fine', 'broken', 'lost']), 'test.jsonl');
    const outcome = await awaitBatch(t, record, ['fine', 'broken', 'lost']);
    expect(outcome?.mapped.results.get('fine')).toMatchObject({ ok: true, content: 'Answer: 1' });
    expect(outcome?.mapped.results.get('broken')).toEqual({ ok: false, error: 'HTTP 400: invalid_image: unsupported image' });
    expect(outcome?.mapped.results.get('lost')).toMatchObject({ ok: false, error: expect.stringMatching(/^missing from the batch results/) });
    expect(outcome?.mapped.missing).toEqual(['lost']);
    expect(outcome?.batch.requests_failed).toBe(1);
  });

  it('stops waiting when aborted and re-attaches to the stored batch later without sending another', async () => {
    fake.batches.configure({ pollsToComplete: 4 });
    const controller = new AbortController();
    const t = target({
      signal: controller.signal,
      onProgress: (batch) => {
        if (batch.state === 'in_progress') controller.abort();
      },
    });
    const record = await sendBatch(t, requests(['x', 'y']), 'test.jsonl');
    const created = fake.batches.created();
    expect(await awaitBatch(t, record, ['x', 'y'])).toBeNull();
    const stored = getBatch(db, record.id);
    expect(stored?.state).toBe('in_progress');
    if (!stored) return;

    const outcome = await awaitBatch(target(), stored, ['x', 'y']);
    expect(outcome?.mapped.results.get('y')).toMatchObject({ ok: true, content: 'Answer: q-y' });
    expect(fake.batches.created()).toBe(created);
  });
});
