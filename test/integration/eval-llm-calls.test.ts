import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SettingsSchema } from '../../shared/settings';
import { listLlmCalls } from '../../server/llm/llm-call-queries';
import { serverErrorReply, startFakeOpenAI, textReply, type FakeOpenAI } from '../support/fake-openai';
import { setItemStatus } from '../support/factories';
import { generateItems } from '../support/review-fixtures';
import { startTestServer, type TestServer } from '../support/test-server';

/** In the default price table, so every call has a cost. */
const MODEL = 'gpt-4o-mini';
const QUESTIONS = 3;

let server: TestServer;
let fake: FakeOpenAI;

beforeAll(async () => {
  fake = await startFakeOpenAI({ defaultHandler: () => textReply('The tallest bar.\nAnswer: 42') });
  server = await startTestServer({ config: { openaiApiKey: 'test-key', openaiBaseUrl: fake.url } });
  const run = await generateItems(server, QUESTIONS);
  setItemStatus(server.server.ctx.db, 'accepted', { runId: run });
});
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

describe('an evaluation run records its model calls', () => {
  it('writes one llm_calls row per attempt, the retried one too, with purpose evaluation, its run and cost', async () => {
    const { evalExecutor, ctx } = server.server;
    // The first question's first attempt fails with a 500 and is asked again.
    fake.script(serverErrorReply());
    const run = evalExecutor.createRun({ engine: 'openai', model: MODEL, mode: 'no_image', concurrency: 1, limit: QUESTIONS }, null);
    await evalExecutor.start(run.id);

    const calls = listLlmCalls(ctx.db, { evalRunId: run.id });
    expect(calls).toHaveLength(QUESTIONS + 1);
    expect(calls.map((c) => [c.attempt, c.outcome])).toEqual([
      [1, 'error'],
      [2, 'ok'],
      [1, 'ok'],
      [1, 'ok'],
    ]);
    expect(calls[0]?.error).toMatch(/^HTTP 500/);
    for (const call of calls) {
      expect(call).toMatchObject({ purpose: 'evaluation', engine: 'openai', model: MODEL, template: 'evaluation', eval_run_id: run.id, run_id: null, task_id: null });
      expect(call.template_hash).toMatch(/^[0-9a-f]{64}$/);
    }
    const answered = calls.filter((c) => c.outcome === 'ok');
    const price = SettingsSchema.parse({}).price_table[MODEL];
    for (const call of answered) {
      expect(call.raw_output).toBe('The tallest bar.\nAnswer: 42');
      expect(call.prompt_tokens).toBeGreaterThan(0);
      expect(call.cost).toBeCloseTo((call.prompt_tokens * (price?.input_per_mtok ?? 0) + call.completion_tokens * (price?.output_per_mtok ?? 0)) / 1e6, 12);
    }
    // The run's own totals are the sum of its calls: the cost is no longer only in eval_runs.
    const totals = ctx.db.prepare('SELECT prompt_tokens, cost, status FROM eval_runs WHERE id = ?').get(run.id) as { prompt_tokens: number; cost: number; status: string };
    expect(totals.status).toBe('done');
    expect(totals.prompt_tokens).toBe(answered.reduce((sum, c) => sum + c.prompt_tokens, 0));
    expect(totals.cost).toBeGreaterThan(0);
    expect(totals.cost).toBeCloseTo(calls.reduce((sum, c) => sum + c.cost, 0), 12);
  });

  it('the factual baseline asks no model and writes no row', async () => {
    const { evalExecutor, ctx } = server.server;
    const run = evalExecutor.createRun({ engine: 'factual-baseline', mode: 'hqa', concurrency: 1, limit: QUESTIONS }, null);
    await evalExecutor.start(run.id);
    expect(listLlmCalls(ctx.db, { evalRunId: run.id })).toEqual([]);
  });
});
