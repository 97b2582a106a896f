import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openAndMigrate, type Db } from '../../db/database';
import { createLlmClient, type LlmClient, type LlmRequest } from '../../server/llm/llm-client';
import { listLlmCalls } from '../../server/llm/llm-call-queries';
import {
  ModelItemOutputSchema,
  ModelProposalOutputSchema,
  toItemDraft,
  toProposalTexts,
  type ModelItem,
  type ModelItemOutput,
} from '../../shared/generation/model-output';
import { SettingsSchema, type Settings } from '../../shared/settings';
import { buildRun } from '../support/factories';
import {
  errorReply,
  hangReply,
  jsonReply,
  rateLimitReply,
  refusalReply,
  serverErrorReply,
  slowReply,
  startFakeOpenAI,
  textReply,
  truncatedJsonReply,
  type FakeOpenAI,
} from '../support/fake-openai';

const MODEL = 'gpt-4o-mini';
/** Small enough that a timeout test takes well under a second per attempt. */
const TEST_TIMEOUT_MS = 200;
const MAX_RETRIES = 2;
const TEMPLATE = { name: 'stage2-item', hash: 'hash-of-stage2-template' };

const NULLS = { row: null, series: null, value: null, factor: null, delta: null, rows: null, values: null };

function buildWireItem(overrides: Partial<ModelItemOutput> = {}): ModelItemOutput {
  return {
    assumption: 'Suppose the value of 2020 doubled.',
    question: 'Suppose the value of 2020 doubled. What is the total over all years?',
    answer: '42',
    answer_type: 'integer',
    rationale: '2020 goes from 12 to 24, so the total rises by 12 to 42.',
    affects_answer: true,
    edit: [{ op: 'scale', ...NULLS, row: '2020', factor: 2 }],
    program: 'sum(col("Value"))',
    ...overrides,
  };
}

let dir: string;
let db: Db;
let fake: FakeOpenAI;
let sleeps: number[];
let settings: Settings;
let client: LlmClient;

function makeClient(overrides: Partial<Settings> = {}): LlmClient {
  settings = { ...SettingsSchema.parse({}), request_timeout_ms: TEST_TIMEOUT_MS, max_retries: MAX_RETRIES, ...overrides };
  return createLlmClient({
    db,
    connection: { apiKey: 'test-key', baseURL: fake.url, timeoutMs: settings.request_timeout_ms, maxRetries: settings.max_retries, prices: settings.price_table },
    engineName: 'openai',
    // No real waiting: the test asserts the requested wait instead.
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0.5,
  });
}

function itemRequest(extra: Partial<LlmRequest<ModelItemOutput, ModelItem>> = {}): LlmRequest<ModelItemOutput, ModelItem> {
  return {
    purpose: 'stage2',
    template: TEMPLATE,
    messages: { system: 'You write counterfactual chart questions.', user: 'Apply the proposal to this chart.' },
    wireSchema: ModelItemOutputSchema,
    schemaName: 'hqa_item',
    convert: toItemDraft,
    model: MODEL,
    temperature: 0.7,
    ...extra,
  };
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'llm-client-'));
  db = openAndMigrate(join(dir, 'workbench.db'));
  fake = await startFakeOpenAI();
  sleeps = [];
  client = makeClient();
});

afterEach(async () => {
  await fake.close();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('LLM client: structured output', () => {
  it('returns a Stage 2 item and records the call with tokens, cost, template and raw output', async () => {
    const runId = buildRun(db, { model: MODEL });
    fake.script(jsonReply(buildWireItem()));

    const result = await client.complete(itemRequest({ runId }));

    expect(result.ok).toBe(true);
    expect(result.ok && result.value.draft.edit).toEqual([{ op: 'scale', row: '2020', factor: 2 }]);
    expect(result.attempts).toBe(1);
    const [call, ...others] = listLlmCalls(db, { runId });
    expect(others).toHaveLength(0);
    expect(call).toMatchObject({
      purpose: 'stage2',
      engine: 'openai',
      model: MODEL,
      template: 'stage2-item',
      template_hash: 'hash-of-stage2-template',
      attempt: 1,
      outcome: 'ok',
      error: null,
      raw_output: JSON.stringify(buildWireItem()),
    });
    expect(call?.prompt_tokens).toBeGreaterThan(0);
    expect(call?.completion_tokens).toBeGreaterThan(0);
    const price = settings.price_table[MODEL];
    const expectedCost = ((call?.prompt_tokens ?? 0) * (price?.input_per_mtok ?? 0) + (call?.completion_tokens ?? 0) * (price?.output_per_mtok ?? 0)) / 1e6;
    expect(call?.cost).toBeCloseTo(expectedCost, 12);
    // This fake reports no prompt cache: nothing cached, so the whole prompt at the input price.
    expect(call?.cached_tokens).toBe(0);
    expect(result.usage).toEqual({ prompt_tokens: call?.prompt_tokens, completion_tokens: call?.completion_tokens, cached_tokens: 0, cost: call?.cost, priced: true });
    expect(fake.requests[0]?.chat?.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'hqa_item', strict: true } });
    expect(fake.requests[0]?.chat?.messages.map((m) => m.role)).toEqual(['system', 'user']);
  });

  it('returns Stage 1 proposals; an unpriced model costs 0 and says so', async () => {
    fake.script(jsonReply({ proposals: ['Raise the smallest category until it becomes the largest.'] }));

    const result = await client.complete({
      ...itemRequest(),
      purpose: 'stage1',
      wireSchema: ModelProposalOutputSchema,
      schemaName: 'proposal_batch',
      convert: toProposalTexts,
      model: 'local-llama',
    });

    expect(result).toMatchObject({ ok: true, value: ['Raise the smallest category until it becomes the largest.'] });
    expect(result.usage).toMatchObject({ cost: 0, priced: false });
    expect(listLlmCalls(db)).toMatchObject([{ purpose: 'stage1', model: 'local-llama', outcome: 'ok', cost: 0 }]);
  });
});

describe('LLM client: invalid output', () => {
  it('repairs malformed JSON once, showing the model its output and the error', async () => {
    fake.script(truncatedJsonReply(buildWireItem()), jsonReply(buildWireItem()));

    const result = await client.complete(itemRequest());

    expect(result).toMatchObject({ ok: true, attempts: 2 });
    const calls = listLlmCalls(db);
    expect(calls.map((c) => c.outcome)).toEqual(['invalid', 'ok']);
    expect(calls[0]?.error).toMatch(/^invalid JSON: not valid JSON/);
    expect(calls[0]?.raw_output).toBe(JSON.stringify(buildWireItem()).slice(0, calls[0]?.raw_output?.length));
    const repair = fake.requests[1]?.chat?.messages ?? [];
    expect(repair.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(repair[2]?.content).toBe(calls[0]?.raw_output);
    expect(String(repair[3]?.content)).toContain('not valid JSON');
    expect(String(repair[3]?.content)).toContain('hqa_item');
    expect(result.usage.prompt_tokens).toBe((calls[0]?.prompt_tokens ?? 0) + (calls[1]?.prompt_tokens ?? 0));
  });

  it('fails with the field-level reason when the repaired output is still invalid', async () => {
    const badOp = buildWireItem({ edit: [{ ...NULLS, op: 'explode' as 'set' }] });
    const missingValue = buildWireItem({ edit: [{ ...NULLS, op: 'set', row: '2020' }] });
    fake.script(jsonReply(badOp), jsonReply(missingValue));

    const result = await client.complete(itemRequest());

    expect(result).toMatchObject({ ok: false, kind: 'invalid', attempts: 2 });
    expect(!result.ok && result.reason).toBe("schema-invalid after repair: edit.0.value: required for op 'set'");
    const calls = listLlmCalls(db);
    expect(calls.map((c) => c.outcome)).toEqual(['invalid', 'invalid']);
    expect(calls[0]?.error).toMatch(/^schema-invalid: edit\.0\.op: /);
    expect(String(fake.requests[1]?.chat?.messages.at(-1)?.content)).toContain('edit.0.op');
  });

  it('records a refusal and does not retry it', async () => {
    fake.script(refusalReply('I cannot help with that.'));

    const result = await client.complete(itemRequest());

    expect(result).toMatchObject({ ok: false, kind: 'refused', reason: 'refused: I cannot help with that.', attempts: 1 });
    expect(listLlmCalls(db)).toMatchObject([{ outcome: 'refused', raw_output: 'I cannot help with that.' }]);
  });
});

describe('LLM client: transport', () => {
  it('honours retry-after on 429 through the injected sleep, without real waiting', async () => {
    fake.script(rateLimitReply({ retryAfterSeconds: 1 }), jsonReply(buildWireItem()));
    const started = Date.now();

    const result = await client.complete(itemRequest());

    expect(result).toMatchObject({ ok: true, attempts: 2 });
    expect(sleeps).toHaveLength(1);
    expect(sleeps[0]).toBeGreaterThanOrEqual(1000);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(listLlmCalls(db).map((c) => [c.attempt, c.outcome])).toEqual([
      [1, 'error'],
      [2, 'ok'],
    ]);
    expect(listLlmCalls(db)[0]?.error).toMatch(/^HTTP 429: Rate limit/);
  });

  it('retries a 500 and succeeds', async () => {
    fake.script(serverErrorReply(), jsonReply(buildWireItem()));

    const result = await client.complete(itemRequest());

    expect(result).toMatchObject({ ok: true, attempts: 2 });
    expect(sleeps).toHaveLength(1);
  });

  it('gives up after max_retries + 1 attempts of 500s, saying so', async () => {
    fake.script(serverErrorReply(), serverErrorReply(), serverErrorReply({ status: 503 }));

    const result = await client.complete(itemRequest());

    expect(result).toMatchObject({ ok: false, kind: 'transport', attempts: MAX_RETRIES + 1 });
    expect(!result.ok && result.reason).toMatch(/^HTTP 503 after 3 attempts: /);
    expect(listLlmCalls(db).map((c) => c.outcome)).toEqual(['error', 'error', 'error']);
  });

  it('times out slow replies, retries, then fails with a timeout reason', async () => {
    fake.script(...Array.from({ length: MAX_RETRIES + 1 }, () => slowReply(TEST_TIMEOUT_MS * 5, jsonReply(buildWireItem()))));

    const result = await client.complete(itemRequest());

    expect(result).toMatchObject({ ok: false, kind: 'transport', attempts: MAX_RETRIES + 1 });
    expect(!result.ok && result.reason).toBe(`timed out after 3 attempts (no response within ${TEST_TIMEOUT_MS} ms)`);
    expect(sleeps).toHaveLength(MAX_RETRIES);
    expect(listLlmCalls(db).every((c) => c.outcome === 'error' && c.error === 'timed out')).toBe(true);
  });

  it('does not retry a rejected key', async () => {
    fake.script(errorReply(401, 'Incorrect API key provided.', { code: 'invalid_api_key' }));

    const result = await client.complete(itemRequest());

    expect(result).toMatchObject({ ok: false, kind: 'rejected', reason: 'HTTP 401: Incorrect API key provided.', attempts: 1 });
    expect(sleeps).toHaveLength(0);
  });

  it('falls back to JSON mode when the endpoint rejects json_schema, and stays there', async () => {
    const fenced = '```json\n' + JSON.stringify(buildWireItem()) + '\n```';
    fake.script(errorReply(400, 'response_format json_schema is not supported'), textReply(fenced), jsonReply(buildWireItem()));

    const first = await client.complete(itemRequest());
    const second = await client.complete(itemRequest());

    expect(first).toMatchObject({ ok: true, attempts: 2 });
    expect(second).toMatchObject({ ok: true, attempts: 1 });
    expect(client.outputMode()).toBe('json_object');
    const [rejected, fallback, next] = fake.requests.map((r) => r.chat);
    expect(rejected?.response_format?.type).toBe('json_schema');
    expect(fallback?.response_format).toEqual({ type: 'json_object' });
    expect(next?.response_format).toEqual({ type: 'json_object' });
    const system = String(fallback?.messages[0]?.content);
    expect(system).toContain('JSON Schema');
    expect(system).toContain('"affects_answer"');
    expect(listLlmCalls(db).map((c) => c.outcome)).toEqual(['error', 'ok', 'ok']);
    expect(listLlmCalls(db)[0]?.error).toMatch(/switching to JSON mode/);
  });

  it('cancels a request in flight when the signal aborts', async () => {
    fake.script(hangReply());
    const controller = new AbortController();

    const pending = client.complete(itemRequest({ signal: controller.signal }));
    await expect.poll(() => fake.requests.length).toBe(1);
    controller.abort();
    const result = await pending;

    expect(result).toMatchObject({ ok: false, kind: 'cancelled', attempts: 1 });
    expect(listLlmCalls(db)).toMatchObject([{ outcome: 'error', error: 'cancelled' }]);
  });
});
