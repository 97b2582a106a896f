import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openAndMigrate, type Db } from '../../db/database';
import { listLlmCalls } from '../../server/llm/llm-call-queries';
import { createTransport, type ModelConnection, type Transport } from '../../server/llm/provider';
import { errorReply, hangReply, rateLimitReply, refusalReply, startFakeOpenAI, textReply, type FakeOpenAI } from '../support/fake-openai';
import { waitFor } from '../support/wait-for';

const MODEL = 'gpt-4o-mini';
const TEMPLATE = { name: 'judge', hash: 'hash-of-judge-prompt' };
const PRICES = { [MODEL]: { input_per_mtok: 0.15, output_per_mtok: 0.6 } };

let dir: string;
let db: Db;
let fake: FakeOpenAI;
let sleeps: number[];

function transport(overrides: Partial<ModelConnection> = {}): Transport {
  return createTransport({
    db,
    connection: { apiKey: 'test-key', baseURL: fake.url, timeoutMs: 5_000, maxRetries: 2, prices: PRICES, ...overrides },
    // No real waiting: the test asserts the requested wait instead.
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0,
  });
}

const body = () => ({ temperature: 0, messages: [{ role: 'user' as const, content: 'Is 42 the answer?' }] });

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'provider-'));
  db = openAndMigrate(join(dir, 'workbench.db'));
  fake = await startFakeOpenAI();
  sleeps = [];
});
afterEach(async () => {
  await fake.close();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the one transport', () => {
  it('any purpose gets a row per attempt: a 429 waits its retry-after, then the reply is recorded with its cost', async () => {
    fake.script(rateLimitReply({ retryAfterSeconds: 2 }), textReply('Yes.'));
    const call = transport().call({ purpose: 'judge', model: MODEL, template: TEMPLATE });
    const reply = await call.send({ body });

    expect(reply.ok && reply.content).toBe('Yes.');
    expect(call.attempts).toBe(2);
    expect(sleeps).toEqual([2000]);
    const calls = listLlmCalls(db);
    expect(calls.map((c) => [c.purpose, c.attempt, c.outcome])).toEqual([
      ['judge', 1, 'error'],
      ['judge', 2, 'ok'],
    ]);
    expect(calls[0]?.error).toMatch(/^HTTP 429/);
    expect(calls[1]).toMatchObject({ template: 'judge', template_hash: 'hash-of-judge-prompt', raw_output: 'Yes.', run_id: null, eval_run_id: null });
    expect(calls[1]?.cost).toBeGreaterThan(0);
    expect(reply.ok && reply.cost).toBe(calls[1]?.cost);
  });

  it('stops when the retries run out, and at once on a 4xx a retry cannot fix', async () => {
    fake.script(errorReply(503, 'busy'), errorReply(503, 'busy'), errorReply(503, 'busy'));
    const exhausted = await transport().call({ purpose: 'evaluation', model: MODEL, template: TEMPLATE }).send({ body });
    expect(exhausted).toMatchObject({ ok: false, kind: 'exhausted', failures: 3, failure: { label: 'HTTP 503' } });

    fake.script(errorReply(401, 'bad key'));
    const rejected = await transport().call({ purpose: 'evaluation', model: MODEL, template: TEMPLATE }).send({ body });
    expect(rejected).toMatchObject({ ok: false, kind: 'rejected', failures: 1, failure: { status: 401 } });
    expect(listLlmCalls(db).map((c) => c.outcome)).toEqual(['error', 'error', 'error', 'error']);
  });

  it('a refusal is recorded as refused; an abort ends a hanging request with a cancelled row', async () => {
    fake.script(refusalReply('no'));
    const refused = await transport().call({ purpose: 'reflection', model: MODEL, template: TEMPLATE }).send({ body });
    expect(refused.ok && refused.refusal).toBe('no');

    fake.script(hangReply());
    const controller = new AbortController();
    const pending = transport().call({ purpose: 'evaluation', model: MODEL, template: TEMPLATE, signal: controller.signal }).send({ body });
    // Aborted once the fake has taken the hanging reply: the request is out and answered by nothing.
    await waitFor('the call to hang at the model', () => fake.pending() === 0);
    controller.abort();
    expect(await pending).toEqual({ ok: false, kind: 'cancelled' });
    expect(listLlmCalls(db).map((c) => [c.purpose, c.outcome, c.error])).toEqual([
      ['reflection', 'refused', 'no'],
      ['evaluation', 'error', 'cancelled'],
    ]);
  });
});

describe('upstream error texts', () => {
  it('are stored without the configured key or anything shaped like a key or bearer token', async () => {
    const key = 'vllm-token-7f3a9c2e1b';
    // A proxy that echoes the request's Authorization header and an OpenAI-style key in its error.
    fake.script(errorReply(401, `Incorrect API key provided. Authorization: Bearer ${key}; also tried sk-proj-AbCdEf123456789 and ${key}`));
    const rejected = await transport({ apiKey: key }).call({ purpose: 'evaluation', model: MODEL, template: TEMPLATE }).send({ body });
    expect(rejected).toMatchObject({ ok: false, kind: 'rejected' });
    const stored = listLlmCalls(db)[0]?.error ?? '';
    const told = rejected.ok || rejected.kind === 'cancelled' ? '' : (rejected.failure.detail ?? '');
    for (const text of [stored, told]) {
      expect(text).toContain('Incorrect API key provided');
      expect(text).not.toContain(key);
      expect(text).not.toContain('AbCdEf123456789');
      expect(text).toContain('Bearer [redacted]');
    }
  });
});
