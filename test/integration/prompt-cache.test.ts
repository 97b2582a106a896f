import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SettingsSchema } from '../../shared/settings';
import { listLlmCalls } from '../../server/llm/llm-call-queries';
import { hqaModel } from '../support/fake-hqa-model';
import { startGenerationServer, type GenerationServer } from '../support/generation-server';

/**
 * Stage 2 requests start with the same instructions, so an endpoint's prompt cache serves them
 * (the fake plays OpenAI's: a shared prefix of 1,024 tokens or more, in blocks of 128), and the
 * workbench records the cached prompt tokens on each call and on the run, pricing them at the
 * price table's cached input price.
 */

let generation: GenerationServer;
beforeAll(async () => {
  generation = await startGenerationServer({ promptCache: true, defaultHandler: hqaModel() });
});
afterAll(async () => {
  await generation.close();
});

describe('a run against an endpoint with a prompt cache', () => {
  it('records the cached prompt tokens of every call after the first, prices them lower, and sums them on the run', async () => {
    // One call at a time, so each request finds the ones before it in the cache; the demo split's QAs span chart types.
    // A question no proposal of the pool can change is declined with no request: every request made an item.
    const { run } = await generation.runToEnd({ engine: 'openai', model: 'gpt-4o-mini', stage: 'items', items: 6, concurrency: 1 });
    expect(run).toMatchObject({ status: 'done', items_failed: 0 });
    expect(run.items_created).toBeGreaterThanOrEqual(3);
    const calls = listLlmCalls(generation.server.server.ctx.db, { runId: run.id });
    expect(calls).toHaveLength(run.items_created);
    // The first request of each template (one chart, a chart group) finds nothing cached; every later one its instructions.
    // A choose request (its reply names a proposal or declines) has its own structured-output
    // schema, which the cache reads before the messages: its first is uncached too.
    const seen = new Set<string>();
    for (const call of calls) {
      const shape = `${call.template}:${/"decline"/.test(call.raw_output ?? '') ? 'choose' : 'one proposal'}`;
      if (!seen.has(shape)) {
        seen.add(shape);
        expect(call.cached_tokens).toBe(0);
        continue;
      }
      // The instructions alone pass the cache's 1,024-token threshold; the chart and question after them are not served.
      expect(call.cached_tokens).toBeGreaterThanOrEqual(1024);
      expect(call.cached_tokens).toBeLessThan(call.prompt_tokens);
    }
    expect(calls.length - seen.size).toBeGreaterThanOrEqual(2);
    const price = SettingsSchema.parse({}).price_table['gpt-4o-mini'];
    expect(price?.cached_input_per_mtok).toBeLessThan(price?.input_per_mtok ?? 0);
    for (const call of calls) {
      const uncached = call.prompt_tokens - call.cached_tokens;
      const expected = (uncached * (price?.input_per_mtok ?? 0) + call.cached_tokens * (price?.cached_input_per_mtok ?? 0) + call.completion_tokens * (price?.output_per_mtok ?? 0)) / 1e6;
      expect(call.cost).toBeCloseTo(expected, 12);
    }
    expect(run.cached_tokens).toBe(calls.reduce((sum, call) => sum + call.cached_tokens, 0));
    expect(run.prompt_tokens).toBe(calls.reduce((sum, call) => sum + call.prompt_tokens, 0));
    expect(run.cost).toBeCloseTo(calls.reduce((sum, call) => sum + call.cost, 0), 12);
  });
});
