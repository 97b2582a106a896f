import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itemsApi } from '../../shared/api/items';
import { poolApi } from '../../shared/api/pool';
import { type Run, runsApi } from '../../shared/api/runs';
import { jsonReply, truncatedJsonReply, type FakeOpenAI } from '../support/fake-openai';
import { correctReply, hqaModel, schemaName } from '../support/fake-hqa-model';
import { startGenerationServer, type GenerationServer } from '../support/generation-server';
import { TestClient } from '../support/http-client';
import { connectAs, recordEvents } from '../support/socket-client';
import { waitFor } from '../support/wait-for';
import { ServerEventSchemas } from '../../shared/events';
import { startTestServer, type TestServer } from '../support/test-server';

let generation: GenerationServer | undefined;
let server: TestServer;
let fake: FakeOpenAI;
let curator: TestClient;

beforeAll(async () => {
  generation = await startGenerationServer();
  ({ server, fake, curator } = generation);
});
afterAll(async () => {
  await generation?.close();
});

async function runToEnd(config: Record<string, unknown>): Promise<Run> {
  if (!generation) throw new Error('the generation server did not start');
  return (await generation.runToEnd(config)).run;
}

describe('the seed pool', () => {
  it('holds four hand-written seeds per chart type on first start', async () => {
    const pool = await curator.call(poolApi.list, { query: { origin: 'seed', page_size: 200 } });
    expect(pool.total).toBe(36);
    const perType = new Map<string, number>();
    for (const p of pool.proposals) perType.set(p.chart_type, (perType.get(p.chart_type) ?? 0) + 1);
    expect([...perType.values()]).toEqual(Array(9).fill(4));
  });

  it('carries the operation of each proposal: the edit ops its items are held to and the verb–object analytics counts', async () => {
    const pool = (await curator.call(poolApi.list, { query: { origin: 'seed', chart_type: 'vertical_bar' } })).proposals;
    const removal = pool.find((p) => p.text.startsWith('Remove the tallest bar'));
    expect(removal?.operation).toEqual({ kind: 'remove_row', ops: ['remove_row', 'add'], scope: 'row', selectors: ['max'], verb_object: { verb: 'remove', noun: 'bar' } });
    const merge = (await curator.call(poolApi.list, { query: { origin: 'seed', chart_type: 'pie' } })).proposals.find((p) => p.text.startsWith('Merge'));
    expect(merge?.operation).toMatchObject({ kind: null, ops: [] });
  });
});

describe('an offline run', () => {
  it('grows the pool and writes verified items, naming itself offline-rules; each item is pushed as item.created', async () => {
    const socket = await connectAs(server.url, curator);
    const pushed = recordEvents(socket, 'item.created');
    const run = await runToEnd({ engine: 'offline', stage: 'both', chart_type: 'vertical_bar', items: 4, proposal_batches: 1 });
    expect(run).toMatchObject({ status: 'done', engine: 'offline', model: 'offline-rules', llm_calls: 0, cost: 0 });
    expect(run.proposals_created).toBeGreaterThan(0);
    expect(run.items_created + run.items_declined + run.items_failed).toBe(4);
    expect(run.items_created).toBeGreaterThan(0);
    const items = await curator.call(itemsApi.list, { query: { run_id: run.id } });
    expect(items.items).toHaveLength(run.items_created);
    for (const item of items.items) {
      // The factual question under an assumption that changes its answer, doing what its proposal says.
      expect(item).toMatchObject({ origin: 'offline', model: 'offline-rules', chart_type: 'vertical_bar', verifier_match: true, question_relation: 'same', answer_unchanged: false, proposal_consistent: true });
      const detail = (await curator.call(itemsApi.get, { params: { id: item.id } })).item;
      expect(detail.rationale).toMatch(/offline/i);
      expect(detail.verifier.recomputed_answer).not.toBeNull();
    }
    const generated = await curator.call(poolApi.list, { query: { origin: 'generated', chart_type: 'vertical_bar' } });
    expect(generated.proposals.every((p) => p.run_id === run.id && p.parent_ids.length > 0)).toBe(true);
    // Lists and the review queue learn of a run's items as they are stored, not at the next fetch.
    const pushedIds = await waitFor('an item.created push per stored item', () => pushed.map((payload) => ServerEventSchemas['item.created'].parse(payload).item.id), (ids) => ids.length >= items.items.length);
    expect(pushedIds.sort((a, b) => a - b)).toEqual(items.items.map((item) => item.id).sort((a, b) => a - b));
    socket.disconnect();
  });

  let secondRun: number | null = null;

  it('takes only QAs without items: a second run makes no item twice', async () => {
    const run = await runToEnd({ engine: 'offline', stage: 'items', chart_type: 'vertical_bar', items: 500 });
    secondRun = run.id;
    const all = await curator.call(itemsApi.list, { query: { chart_type: 'vertical_bar', page_size: 200 } });
    const qaIds = all.items.map((i) => i.qa_id);
    expect(new Set(qaIds).size).toBe(qaIds.length);
    expect(run.items_created + run.items_declined + run.items_failed).toBe(run.tasks_total);
  });

  it('counts the questions its rules can make no item for as "no item possible", apart from failures', async () => {
    const { run, errors, declines } = await curator.call(runsApi.get, { params: { id: secondRun ?? 0 } });
    // Some of the demo's vertical-bar questions no operation the rules perform can change.
    expect(run.items_declined).toBeGreaterThan(0);
    expect(declines.filter((decline) => decline.kind === 'item')).toHaveLength(run.items_declined);
    for (const decline of declines) expect(decline).toMatchObject({ kind: 'item', declined_by: 'rules', reason: expect.stringMatching(/^offline rules: /) });
    // Expected refusals are done tasks, never failed ones.
    expect(errors.filter((error) => error.error.startsWith('offline rules:'))).toEqual([]);
    expect(run.tasks_failed).toBe(run.items_failed);
    expect(run.items_created + run.items_declined + run.items_failed).toBe(run.tasks_total);
  });
});

describe('an openai run through the real SDK', () => {
  it('runs both stages: proposals with lineage, items with call records', async () => {
    fake.setDefault(hqaModel());
    const before = fake.requests.length;
    const detail = await generation?.runToEnd({ engine: 'openai', model: 'gpt-4o-mini', stage: 'both', chart_type: 'pie', items: 3, proposal_batches: 1 });
    if (!detail) throw new Error('the generation server did not start');
    const { run } = detail;
    expect(run).toMatchObject({ status: 'done', engine: 'openai', model: 'gpt-4o-mini', proposals_created: 1, items_failed: 0 });
    // A question no proposal of the pool can change is declined by the server, with no request; every request made an item.
    expect(run.items_created).toBeGreaterThan(0);
    expect(run.items_created + run.items_declined).toBe(3);
    expect(detail.declines.every((decline) => decline.declined_by === 'server')).toBe(true);
    expect(run.llm_calls).toBe(1 + run.items_created);
    expect(run.prompt_tokens).toBeGreaterThan(0);
    expect(run.cost).toBeGreaterThan(0);
    expect(fake.requests.length - before).toBe(run.llm_calls);
    const stage1 = fake.requests.slice(before).find((r) => r.chat && schemaName(r.chat) === 'proposal_batch');
    expect(JSON.stringify(stage1?.body)).toMatch(/Pie/);
    const items = await curator.call(itemsApi.list, { query: { run_id: run.id } });
    expect(items.items.every((i) => i.origin === 'llm' && i.model === 'gpt-4o-mini' && i.verifier_match === true)).toBe(true);
    const calls = server.server.ctx.db.prepare('SELECT purpose, template, template_hash, outcome, raw_output FROM llm_calls WHERE run_id = ?').all(run.id) as {
      purpose: string;
      template: string;
      template_hash: string;
      outcome: string;
      raw_output: string;
    }[];
    expect(calls.map((c) => c.purpose).sort()).toEqual(['stage1', ...Array<string>(run.items_created).fill('stage2')]);
    expect(calls.every((c) => c.outcome === 'ok' && /^[0-9a-f]{64}$/.test(c.template_hash) && c.raw_output.length > 0)).toBe(true);
  });

  it('keeps a proposal too close to the pool as a duplicate with a pointer', async () => {
    const seeds = (await curator.call(poolApi.list, { query: { origin: 'seed', chart_type: 'line' } })).proposals;
    const seed = seeds[0];
    if (!seed) throw new Error('no line seed');
    fake.setDefault(hqaModel({ proposals: () => [seed.text.replace(/\.$/, '') + ' again.', 'Invert the direction of every change between consecutive periods across the series'] }));
    const run = await runToEnd({ engine: 'openai', stage: 'proposals', chart_type: 'line', proposal_batches: 1 });
    expect(run.proposals_created).toBe(1);
    const dupes = (await curator.call(poolApi.list, { query: { status: 'duplicate', chart_type: 'line' } })).proposals;
    expect(dupes).toHaveLength(1);
    expect(dupes[0]).toMatchObject({ duplicate_of: seed.id, run_id: run.id });
    expect(dupes[0]?.similarity).toBeGreaterThanOrEqual(0.7);
  });

  it('fails an item whose output stays invalid after the repair, and goes on with the rest', async () => {
    let stage2 = 0;
    fake.setDefault((chat) => {
      stage2++;
      // The first item's call and its repair both come back truncated.
      return stage2 <= 2 ? truncatedJsonReply(correctReply(chat)) : jsonReply(correctReply(chat));
    });
    const detail = await generation?.runToEnd({ engine: 'openai', stage: 'items', chart_type: 'grouped_bar', items: 3, concurrency: 1 });
    if (!detail) throw new Error('the generation server did not start');
    const { run } = detail;
    expect(run, JSON.stringify(detail.errors)).toMatchObject({ status: 'done', items_failed: 1 });
    expect(run.items_created).toBeGreaterThan(0);
    expect(run.items_created + run.items_failed + run.items_declined).toBe(3);
    expect(detail.errors).toHaveLength(1);
    expect(detail.errors[0]?.error).toMatch(/invalid/i);
    const outcomes = server.server.ctx.db.prepare('SELECT outcome FROM llm_calls WHERE run_id = ? ORDER BY id').all(run.id) as { outcome: string }[];
    expect(outcomes.map((o) => o.outcome)).toEqual(['invalid', 'invalid', ...Array<string>(run.items_created).fill('ok')]);
  });

  it('stops the run cleanly at its token budget', async () => {
    fake.setDefault(hqaModel());
    const run = await runToEnd({ engine: 'openai', stage: 'items', chart_type: 'horizontal_bar', items: 10, concurrency: 1, budget_tokens: 1 });
    expect(run.status).toBe('done');
    expect(run.stop_reason).toMatch(/budget cap reached/);
    expect(run.items_created).toBe(1);
    expect(run.tasks_total).toBeGreaterThan(1);
  });

  it('refuses an openai run when no key is configured', async () => {
    const offline = await startTestServer({ demo: false });
    try {
      await offline.createUser('c2', 'curator', 'curator-pass-2');
      const client = new TestClient(offline.url);
      await client.login('c2', 'curator-pass-2');
      const res = await client.send(runsApi.create, { body: { engine: 'openai' } });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: { field: 'engine' } });
    } finally {
      await offline.close();
    }
  });
});
