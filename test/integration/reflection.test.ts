import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { poolApi } from '../../shared/api/pool';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { reflectionApi, type ReflectionBatch } from '../../shared/api/reflection';
import type { ServerToClientEvents } from '../../shared/events';
import { RunConfigSchema } from '../../shared/api/runs';
import { getSettings, putSettings } from '../../server/settings/settings-queries';
import type { ChartType } from '../../shared/domain/chart-types';
import { getQaWithChart } from '../../server/charts/chart-queries';
import { offlineItem } from '../../server/generation/offline/offline-item';
import { createItem, createVerifiedItem, itemKey } from '../../server/items/item-service';
import { assumptionKey } from '../../shared/generation/assumption-key';
import { CONSTRAINT_CLAUSES } from '../../shared/generation/proposal-constraints';
import { getProposal } from '../../server/pool/pool-queries';
import { addProposal } from '../../server/pool/pool-service';
import { userIdByName } from '../../server/users/user-service';
import { NO_USAGE } from '../../server/generation/engine';
import { ReflectionBatches } from '../../server/reflection/reflection-batches';
import { FeedbackLoop } from '../../server/reflection/reflection-service';
import type { Reviser } from '../../server/reflection/revisers';
import { buildLease, setItemStatus, setJobOwner } from '../support/factories';
import { jsonReply, startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai';
import { schemaName } from '../support/fake-hqa-model';
import { TestClient } from '../support/http-client';
import { acceptReview, rejectReview } from '../support/review-fixtures';
import { startTestServer, type TestServer } from '../support/test-server';
import { onEvent } from '../support/socket-client';
import { reviewApi } from '../../shared/api/review';

async function setup(server: TestServer) {
  await server.createUser('cora', 'curator', 'curator-pass-1');
  await server.createUser('rev', 'reviewer', 'reviewer-pass-1');
  const curator = new TestClient(server.url);
  await curator.login('cora', 'curator-pass-1');
  const reviewer = new TestClient(server.url);
  await reviewer.login('rev', 'reviewer-pass-1');
  return { curator, reviewer };
}

/** Offline items for one chart type, then one review (reject by default) of each item of one proposal. */
async function itemsAndReviews(server: TestServer, reviewer: TestClient, chartType: string, verdict: 'reject' | 'accept' = 'reject') {
  const { executor } = server.server;
  const run = executor.createRun(RunConfigSchema.parse({ engine: 'offline', stage: 'items', chart_type: chartType, items: 6 }), null);
  await executor.start(run.id);
  const db = server.server.ctx.db;
  const { proposal_id: proposalId } = db
    .prepare('SELECT proposal_id FROM hqa_items WHERE run_id = ? GROUP BY proposal_id ORDER BY COUNT(*) DESC LIMIT 1')
    .get(run.id) as { proposal_id: number };
  const itemIds = (db.prepare('SELECT id FROM hqa_items WHERE proposal_id = ? AND run_id = ?').all(proposalId, run.id) as { id: number }[]).map((r) => r.id);
  for (const itemId of itemIds) {
    // Put this item first in the caller's queue by leasing it directly through the API.
    setItemStatus(db, 'in_review', [itemId]);
    buildLease(db, { itemId, reviewerId: userIdByName(db, 'rev') });
    const res = await reviewer.send(reviewApi.submit, { params: { id: itemId }, body: verdict === 'reject' ? rejectReview('The slices must still sum to 100; take the points from another slice.') : acceptReview() });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  }
  return { proposalId, itemIds, runId: run.id };
}

/** A proposal of the pool with this text (added as a curator's seed when the pool lacks it). */
function proposalIdOf(server: TestServer, chartType: ChartType, text: string): number {
  return addProposal(server.server.ctx.db, { chartType, text, origin: 'seed', parentIds: [], round: 0 }, 1).id;
}

/** `count` offline items of one proposal over the demo's QAs of its chart type, stored as runs store them. */
async function itemsOfProposal(server: TestServer, proposalId: number, count: number): Promise<number[]> {
  const db = server.server.ctx.db;
  const proposal = getProposal(db, proposalId);
  if (!proposal) throw new Error(`no proposal ${proposalId}`);
  // Any chart the proposal's operation fits will do: the offline rules read the operation, not the type.
  // One-chart questions on charts with a table: the demo's image-only chart and its group's questions are not this helper's.
  const qaIds = (
    db.prepare('SELECT q.id FROM factual_qas q JOIN charts c ON c.id = q.chart_id WHERE c.data_table IS NOT NULL AND q.group_id IS NULL ORDER BY c.chart_type = ? DESC, q.id').all(proposal.chart_type) as { id: number }[]
  ).map((r) => r.id);
  const ids: number[] = [];
  for (const qaId of qaIds) {
    if (ids.length >= count) break;
    const source = getQaWithChart(db, qaId);
    if (!source) continue;
    const made = offlineItem({ table: source.chart.table, chartType: source.chart.chart_type, title: source.chart.title ?? '', qa: source.qa, proposal, seed: qaId, maxChangeShare: getSettings(db).max_change_share });
    if (!made.ok) continue;
    const item = createVerifiedItem(db, { source, draft: made.draft, origin: 'offline', proposalId, runId: null, model: 'offline-rules', createdBy: null, idempotencyKey: itemKey(proposalId, qaId) });
    if (item) ids.push(item.id);
  }
  expect(ids.length).toBe(count);
  return ids;
}

async function reviewAll(server: TestServer, reviewer: TestClient, itemIds: number[], feedback: string): Promise<void> {
  const db = server.server.ctx.db;
  for (const itemId of itemIds) {
    setItemStatus(db, 'in_review', [itemId]);
    buildLease(db, { itemId, reviewerId: userIdByName(db, 'rev') });
    const res = await reviewer.send(reviewApi.submit, { params: { id: itemId }, body: { ...rejectReview(feedback), criteria: { ...rejectReview().criteria, layout: { pass: true, note: '' }, rationality: { pass: false, note: '' } } } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  }
}

describe('reflection with the offline engine', () => {
  let server: TestServer;
  let curator: TestClient;
  let reviewer: TestClient;
  beforeAll(async () => {
    server = await startTestServer();
    ({ curator, reviewer } = await setup(server));
    putSettings(server.server.ctx.db, { auto_reflect: false, retire_min_decisions: 1000, reflection_min_decisions: 1 });
  });
  afterAll(async () => {
    await server.close();
  });

  it('waits for reflection_min_decisions decided items; revises two proposals with different feedback differently', async () => {
    const db = server.server.ctx.db;
    // A team whose checks allow up to a quadrupling: tripling passes them, and the reviewers judge it.
    putSettings(db, { reflection_min_decisions: 3, max_change_share: 0.75 });
    try {
      const tripled = proposalIdOf(server, 'vertical_bar', 'Triple the value of the largest bar.');
      const doubled = proposalIdOf(server, 'vertical_bar', 'Double the value of the largest bar.');
      const first = await itemsOfProposal(server, tripled, 3);
      const second = await itemsOfProposal(server, doubled, 3);
      await reviewAll(server, reviewer, first.slice(0, 2), 'Not plausible: tripling this overnight is unrealistic.');
      const early = await curator.send(reflectionApi.reflect, { params: { id: tripled } });
      expect(early.status).toBe(409);
      expect(JSON.stringify(early.body)).toMatch(/2 decided items; reflection waits for 3 \(setting reflection_min_decisions\)/);
      await reviewAll(server, reviewer, first.slice(2), 'Far too large a change to be plausible.');
      await reviewAll(server, reviewer, second, 'This does not change the answer to the question: it asks about another bar.');
      const a = await curator.call(reflectionApi.reflect, { params: { id: tripled } });
      const b = await curator.call(reflectionApi.reflect, { params: { id: doubled } });
      expect(a.revised?.text).toBe(`Raise the value of the largest bar by 20 percent, ${CONSTRAINT_CLAUSES.bounded_change}.`);
      expect(b.revised?.text).toBe('Double the value of the bar the question asks about.');
      expect(a.reflection.addressed).toMatch(/3 of 3 reviews asked \(item \d+: "Far too large/);
      expect(b.reflection.addressed).toMatch(/made the change act on the element the question asks about/);
    } finally {
      putSettings(db, { reflection_min_decisions: 1, max_change_share: 0.5 });
    }
  });

  it('revises a proposal from its feedback, with lineage, and the next run samples the revision', async () => {
    const { proposalId } = await itemsAndReviews(server, reviewer, 'pie');
    const listed = await curator.call(reflectionApi.list, { params: { id: proposalId } });
    expect(listed.feedback.length).toBeGreaterThan(0);
    expect(listed.feedback[0]?.failed).toEqual(['layout']);
    expect((await reviewer.send(reflectionApi.reflect, { params: { id: proposalId } })).status).toBe(403);
    const { reflection, revised } = await curator.call(reflectionApi.reflect, { params: { id: proposalId } });
    expect(reflection).toMatchObject({ proposal_id: proposalId, engine: 'offline', model: 'offline-rules', status: 'done', trigger: 'manual' });
    expect(reflection.addressed).toMatch(/layout failed/);
    expect(revised).toMatchObject({ origin: 'revised', status: 'active', parent_ids: [proposalId] });
    expect(revised?.text).toMatch(/sum to 100/);
    const parent = (await curator.call(poolApi.get, { params: { id: proposalId } })).proposal;
    expect(revised?.round).toBe(parent.round + 1);
    expect(parent.child_ids).toContain(revised?.id);

    // A fresh run draws the revision: it has no items yet, so it is the least used.
    const { executor } = server.server;
    const next = executor.createRun(RunConfigSchema.parse({ engine: 'offline', stage: 'items', chart_type: 'pie', items: 10 }), null);
    await executor.start(next.id);
    const used = server.server.ctx.db.prepare('SELECT COUNT(*) AS n FROM hqa_items WHERE run_id = ? AND proposal_id = ?').get(next.id, revised?.id) as { n: number };
    expect(used.n).toBeGreaterThan(0);
  });

  it('never makes an item with the QA and the assumption of a rejected one again, under any proposal', async () => {
    const { itemIds } = await itemsAndReviews(server, reviewer, 'vertical_bar');
    const db = server.server.ctx.db;
    const rejected = itemIds.map((id) => db.prepare('SELECT qa_id, assumption, proposal_id, question, answer, answer_type, rationale, edit, program FROM hqa_items WHERE id = ?').get(id) as { qa_id: number; assumption: string; proposal_id: number; question: string; answer: string; answer_type: 'integer'; rationale: string; edit: string; program: string });
    expect(rejected.length).toBeGreaterThan(0);
    // Every QA again, those with items included: the rules must find other assumptions or none.
    const { executor } = server.server;
    const again = executor.createRun(RunConfigSchema.parse({ engine: 'offline', stage: 'items', chart_type: 'vertical_bar', items: 200, only_new_qas: false }), null);
    await executor.start(again.id);
    for (const item of rejected) {
      const twins = db.prepare('SELECT id, assumption FROM hqa_items WHERE run_id = ? AND qa_id = ?').all(again.id, item.qa_id) as { id: number; assumption: string }[];
      expect(twins.map((twin) => assumptionKey(twin.assumption))).not.toContain(assumptionKey(item.assumption));
    }
    // A model's item repeating one, under another proposal, is refused with the reason.
    const [first] = rejected;
    const source = first ? getQaWithChart(db, first.qa_id) : null;
    if (!first || !source) throw new Error('no rejected item');
    const other = proposalIdOf(server, 'vertical_bar', 'Raise the bar the question asks about by a noticeable amount.');
    const draft = { assumption: `${first.assumption.replace(/\.$/, '')}.`, question: first.question, answer: first.answer, answer_type: first.answer_type, rationale: first.rationale, affects_answer: true, edit: JSON.parse(first.edit) as never, program: first.program };
    const repeated = createItem(db, { source, draft, origin: 'llm', proposalId: other, runId: null, model: 'gpt-4o-mini', createdBy: null, idempotencyKey: itemKey(other, first.qa_id) }, 'drop');
    expect(repeated).toMatchObject({ ok: false, reason: expect.stringMatching(/^repeats_rejected: /) });
  });

  it('reflects in a batch on every proposal with new decisions, reporting progress live', async () => {
    await itemsAndReviews(server, reviewer, 'horizontal_bar');
    const socket: Socket<ServerToClientEvents> = connectSocket(server.url, { extraHeaders: { cookie: curator.cookie }, transports: ['websocket'] });
    try {
      await new Promise<void>((resolve) => socket.on('connect', () => resolve()));
      const finished = new Promise<ReflectionBatch>((resolve) => onEvent(socket, 'reflection.progressed', ({ batch }) => batch.status === 'done' && resolve(batch)));
      const started = (await curator.call(reflectionApi.startBatch, { body: { chart_type: 'horizontal_bar' } })).batch;
      expect(started.total).toBeGreaterThan(0);
      const batch = await finished;
      expect(batch).toMatchObject({ id: started.id, done: started.total, failed: 0 });
      expect(batch.revised).toBe(started.total);
      // A page opened later finds it, finished, as the newest batch.
      const listed = (await curator.call(reflectionApi.batches)).batches;
      expect(listed[0]).toEqual(batch);
    } finally {
      socket.close();
    }
  });

  it('counts what happened in a batch whose every reflection failed: all failed, each with its reason, none revised', async () => {
    await itemsAndReviews(server, reviewer, 'horizontal_bar');
    const { ctx } = server.server;
    const curatorId = userIdByName(ctx.db, 'cora');
    // The model's endpoint refuses: each reflection is stored as failed rather than thrown.
    const failing: Reviser = { engine: 'openai', model: 'gpt-4o-mini', revise: () => Promise.resolve({ ok: false, reason: 'the endpoint answered 503 three times', usage: NO_USAGE }) };
    const batches = new ReflectionBatches(ctx, new FeedbackLoop(ctx, () => failing));
    try {
      const started = batches.start('horizontal_bar', curatorId);
      expect(started.total).toBeGreaterThan(0);
      await batches.run(started.id);
      const finished = (await curator.call(reflectionApi.batches)).batches[0];
      expect(finished).toMatchObject({ id: started.id, status: 'done', done: started.total, revised: 0, failed: started.total });
      expect(finished?.errors.map((error) => error.error)).toEqual(Array(started.total).fill('the endpoint answered 503 three times'));
    } finally {
      await batches.shutdown();
    }
  });

  it('a batch stopped by a shutdown is stored, and the next start resumes it where it stopped', async () => {
    await itemsAndReviews(server, reviewer, 'line');
    await itemsAndReviews(server, reviewer, 'area');
    const { ctx } = server.server;
    const curatorId = (ctx.db.prepare("SELECT id FROM users WHERE username = 'cora'").get() as { id: number }).id;
    // A reviser that answers only when stopped: the shutdown lands mid-call.
    let calls = 0;
    const hanging: Reviser = {
      engine: 'offline',
      model: 'offline-rules',
      revise: async ({ signal }) => {
        calls++;
        await new Promise<void>((resolve) => signal?.addEventListener('abort', () => resolve(), { once: true }));
        return { ok: false, reason: 'stopped', usage: NO_USAGE };
      },
    };
    const first = new ReflectionBatches(ctx, new FeedbackLoop(ctx, () => hanging));
    const started = first.start(undefined, curatorId);
    expect(started.total).toBeGreaterThanOrEqual(2);
    await expect.poll(() => calls).toBe(1);
    await first.shutdown();
    const stopped = (await curator.call(reflectionApi.batches)).batches[0];
    expect(stopped).toMatchObject({ id: started.id, status: 'running', done: 0, failed: 0 });
    const reflectionsBefore = (ctx.db.prepare('SELECT COUNT(*) AS n FROM reflections').get() as { n: number }).n;

    // The next start: its owner is a process that has exited.
    const deadPid = spawnSync(process.execPath, ['-e', '0']).pid;
    setJobOwner(ctx.db, 'reflection_batches', started.id, { pid: deadPid });
    const second = new ReflectionBatches(ctx, new FeedbackLoop(ctx));
    expect(second.resumeOrphans()).toEqual([started.id]);
    await second.run(started.id);
    const finished = (await curator.call(reflectionApi.batches)).batches[0];
    expect(finished).toMatchObject({ id: started.id, status: 'done', done: started.total, failed: 0, revised: started.total });
    // Each proposal reflected on once: the stopped call stored nothing.
    expect((ctx.db.prepare('SELECT COUNT(*) AS n FROM reflections').get() as { n: number }).n).toBe(reflectionsBefore + started.total);
  });

  it('refuses to reflect on a proposal without reviews', async () => {
    const fresh = server.server.ctx.db.prepare("SELECT id FROM proposals WHERE chart_type = 'scatter' LIMIT 1").get() as { id: number };
    expect((await curator.send(reflectionApi.reflect, { params: { id: fresh.id } })).status).toBe(409);
  });
});

describe('automatic retirement and reflection', () => {
  let server: TestServer;
  let curator: TestClient;
  let reviewer: TestClient;
  beforeAll(async () => {
    server = await startTestServer();
    ({ curator, reviewer } = await setup(server));
  });
  afterAll(async () => {
    await server.close();
  });

  it('retires a proposal whose items keep failing, and reflects on it by itself', async () => {
    putSettings(server.server.ctx.db, { auto_reflect: true, reflection_min_decisions: 2, retire_min_decisions: 2, retire_max_pass_rate: 0.25 });
    const { proposalId, itemIds } = await itemsAndReviews(server, reviewer, 'vertical_bar');
    expect(itemIds.length).toBeGreaterThanOrEqual(2);
    const db = server.server.ctx.db;
    expect(db.prepare('SELECT status FROM proposals WHERE id = ?').get(proposalId)).toEqual({ status: 'retired' });
    await expect.poll(() => (db.prepare("SELECT COUNT(*) AS n FROM reflections WHERE proposal_id = ? AND trigger = 'auto'").get(proposalId) as { n: number }).n).toBeGreaterThan(0);
  });

  it('an automatic reflection is a job: a shutdown leaves it to resume at the next start, a failure is recorded on it', async () => {
    const { ctx } = server.server;
    putSettings(ctx.db, { auto_reflect: false, reflection_min_decisions: 1, retire_min_decisions: 1000 });
    const { proposalId } = await itemsAndReviews(server, reviewer, 'pie');
    const automatic = () =>
      ctx.db.prepare("SELECT id, status, done, failed, errors, created_by FROM reflection_batches WHERE created_by IS NULL AND proposal_ids = json_array(CAST(? AS INTEGER)) ORDER BY id").all(proposalId);
    let calls = 0;
    const hanging: Reviser = {
      engine: 'offline',
      model: 'offline-rules',
      revise: async ({ signal }) => {
        calls++;
        await new Promise<void>((resolve) => signal?.addEventListener('abort', () => resolve(), { once: true }));
        return { ok: false, reason: 'stopped', usage: NO_USAGE };
      },
    };
    const first = new ReflectionBatches(ctx, new FeedbackLoop(ctx, () => hanging));
    first.startAutomatic(proposalId);
    await expect.poll(() => calls).toBe(1);
    // Pending already: a second decision in the meantime adds no second job.
    first.startAutomatic(proposalId);
    await first.shutdown();
    expect(automatic()).toMatchObject([{ status: 'running', done: 0 }]);
    // Not a curator's batch: the batch list (and its live progress) stays theirs.
    const listed = (await curator.call(reflectionApi.batches)).batches;
    expect(listed.map((batch) => batch.id)).not.toContain((automatic()[0] as { id: number }).id);

    const deadPid = spawnSync(process.execPath, ['-e', '0']).pid;
    for (const { id } of automatic() as { id: number }[]) setJobOwner(ctx.db, 'reflection_batches', id, { pid: deadPid });
    const second = new ReflectionBatches(ctx, new FeedbackLoop(ctx));
    const [resumed] = second.resumeOrphans();
    expect(resumed).toBe((automatic()[0] as { id: number }).id);
    await second.run(resumed ?? -1);
    expect(automatic()).toMatchObject([{ status: 'done', done: 1, failed: 0 }]);
    expect(ctx.db.prepare("SELECT trigger, created_by FROM reflections WHERE proposal_id = ? ORDER BY id DESC LIMIT 1").get(proposalId)).toEqual({ trigger: 'auto', created_by: null });

    const failing: Reviser = { engine: 'openai', model: 'gpt-4o-mini', revise: () => Promise.resolve({ ok: false, reason: 'the endpoint answered 503 three times', usage: NO_USAGE }) };
    const third = new ReflectionBatches(ctx, new FeedbackLoop(ctx, () => failing));
    const failed = third.startAutomatic(proposalId);
    await third.run(failed ?? -1);
    expect(automatic()[1]).toMatchObject({ status: 'done', failed: 1, errors: JSON.stringify([{ proposal_id: proposalId, error: 'the endpoint answered 503 three times' }]) });
  });
});

describe('reflection through the openai SDK', () => {
  let fake: FakeOpenAI;
  let server: TestServer;
  let curator: TestClient;
  let reviewer: TestClient;
  beforeAll(async () => {
    fake = await startFakeOpenAI();
    server = await startTestServer({ config: { openaiApiKey: 'test-key', openaiBaseUrl: fake.url } });
    ({ curator, reviewer } = await setup(server));
    putSettings(server.server.ctx.db, { auto_reflect: false, retire_min_decisions: 1000, reflection_min_decisions: 1 });
  });
  afterAll(async () => {
    await server.close();
    await fake.close();
  });

  it('sends the reviewers’ feedback to the model and stores its revision', async () => {
    const { proposalId } = await itemsAndReviews(server, reviewer, 'pie');
    fake.setDefault((chat) =>
      schemaName(chat) === 'proposal_revision'
        ? jsonReply({ revised_proposal: 'Move points from the largest slice to the smallest so the slices still sum to 100.', addressed: 'Slices no longer summed to 100.' })
        : jsonReply({}),
    );
    const before = fake.requests.length;
    const { reflection, revised } = await curator.call(reflectionApi.reflect, { params: { id: proposalId } });
    const sent = JSON.stringify(fake.requests.slice(before).map((r) => r.body));
    expect(sent).toContain('The slices must still sum to 100; take the points from another slice.');
    expect(sent).toContain('Failed: layout');
    expect(reflection).toMatchObject({ engine: 'openai', status: 'done', addressed: 'Slices no longer summed to 100.' });
    expect(revised).toMatchObject({ origin: 'revised', parent_ids: [proposalId], text: 'Move points from the largest slice to the smallest so the slices still sum to 100.' });
    const call = server.server.ctx.db.prepare("SELECT purpose, outcome FROM llm_calls WHERE purpose = 'reflection'").get();
    expect(call).toEqual({ purpose: 'reflection', outcome: 'ok' });
  });
});
