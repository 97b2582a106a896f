import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AblationRow,
  analyticsApi,
} from '../../shared/api/analytics';
import { itemsApi } from '../../shared/api/items';
import { reviewApi, type SubmitReviewRequest, SubmitReviewResponseSchema } from '../../shared/api/review';
import { RunConfigSchema } from '../../shared/api/runs';
import { ChartTypeSchema, type ChartType } from '../../shared/domain/chart-types';
import { extractOperation, operationKey } from '../../server/analytics/operations';
import { insertProposal, updateProposal } from '../../server/pool/pool-queries';
import { backdateProposals, buildLlmCall, buildReflection, dropItems, listItemIds, proposalIds } from '../support/factories';
import { TestClient } from '../support/http-client';
import { acceptReview, generateItems, rejectReview } from '../support/review-fixtures';
import { startTestServer, type TestServer } from '../support/test-server';
import { settingsApi } from '../../shared/api/settings';

/**
 * The analytics endpoints against a database built step by step, each figure checked against
 * what that database must give: 6 machine items (4 accepted), 1 hand-written item (accepted),
 * and 2 HAI items (1 accepted) from a revision and a proposal of round 1 inserted for them.
 */
let server: TestServer;
let curator: TestClient;
let reviewer: TestClient;
const anonymous = () => new TestClient(server.url);
const db = () => server.server.ctx.db;

const ACCEPT_TIME_MS = 1200; // acceptReview's time_spent_ms
const REJECT_TIME_MS = 3400; // rejectReview's
const EARLY_DAY = '2020-01-01';

let chartType: ChartType;
let seedId: number;
let childId: number;
let grandchildId: number;
let machineRunId: number;
let haiRunId: number;

/** Reviews the next item in the queue; returns the review's id. */
async function review(decision: SubmitReviewRequest): Promise<number> {
  const next = (await reviewer.call(reviewApi.next, { body: {} })).task;
  if (!next) throw new Error('the queue is empty');
  const res = await reviewer.send(reviewApi.submit, { params: { id: next.item.id }, body: decision });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return SubmitReviewResponseSchema.parse(res.body).review_id;
}

function addCall(runId: number, cost: number) {
  buildLlmCall(db(), { run_id: runId, cost });
}

/** 6 offline items from the round-0 seeds: 4 accepted (complexity 2–5), 2 rejected; 0.6 of LLM cost. */
async function buildMachineItems() {
  machineRunId = await generateItems(server, 6);
  // The first decision is undone and made again: the retracted review's time was still spent.
  const undone = await review(acceptReview({ complexity: 5 }));
  expect((await reviewer.send(reviewApi.undo, { params: { id: undone } })).status).toBe(200);
  for (const complexity of [2, 3, 4, 5]) await review(acceptReview({ complexity }));
  await review(rejectReview());
  await review(rejectReview());
  addCall(machineRunId, 0.6);
}

/** One hand-written item without a proposal (its assumption names remove/value), accepted with complexity 1. */
async function addHumanItem() {
  const source = db().prepare('SELECT id FROM hqa_items WHERE run_id = ? ORDER BY id LIMIT 1').get(machineRunId) as { id: number };
  const copy = (await curator.call(itemsApi.get, { params: { id: source.id } })).item;
  const { qa_id, question, rationale, edit, program, answer, answer_type, affects_answer } = copy;
  const assumption = 'Suppose the largest value were removed.';
  const res = await curator.send(itemsApi.create, { body: { qa_id, assumption, question, rationale, edit, program, answer, answer_type, affects_answer } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  await review(acceptReview({ complexity: 1 }));
}

/**
 * A revision of a seed used above (its reflection cost 0.05) and a round-1 proposal sampled
 * from it and another seed; one offline item from each (0.2 of LLM cost), 1 accepted.
 */
async function buildHaiItems() {
  const used = db().prepare('SELECT p.id, p.chart_type FROM hqa_items i JOIN proposals p ON p.id = i.proposal_id ORDER BY i.id LIMIT 1').get() as {
    id: number;
    chart_type: string;
  };
  seedId = used.id;
  chartType = ChartTypeSchema.parse(used.chart_type);
  const seeds = db().prepare("SELECT id FROM proposals WHERE chart_type = ? AND origin = 'seed' AND id != ? ORDER BY id").all(chartType, seedId) as { id: number }[];
  const otherSeedId = seeds[0]?.id ?? 0;
  const proposal = { chart_type: chartType, status: 'active', round: 1 } as const;
  childId = insertProposal(db(), { ...proposal, text: 'Raise the value the question asks about by a fifth, and ask the question again.', origin: 'revised', parent_ids: [seedId] });
  grandchildId = insertProposal(db(), { ...proposal, text: 'Halve the value the question asks about and ask the question again.', origin: 'generated', parent_ids: [childId, otherSeedId] });
  buildReflection(db(), { proposalId: seedId, revisedId: childId, usage: { prompt_tokens: 0, completion_tokens: 0, cost: 0.05 } });
  // Only the two new proposals are active while the run plans, so its items use them.
  for (const { id } of seeds) updateProposal(db(), id, { status: 'retired' });
  updateProposal(db(), seedId, { status: 'retired' });
  const { executor } = server.server;
  // More QAs than items wanted: the offline rules skip a question neither operation can change.
  const run = executor.createRun(RunConfigSchema.parse({ engine: 'offline', stage: 'items', chart_type: chartType, items: 12 }), null);
  await executor.start(run.id);
  haiRunId = run.id;
  // One item of each new proposal is the database the figures below are computed for.
  const kept: number[] = [];
  for (const proposalId of [childId, grandchildId]) {
    const [first] = listItemIds(db(), { runId: run.id, proposalId });
    expect(first, `proposal ${proposalId} made no item`).toBeDefined();
    if (first !== undefined) kept.push(first);
  }
  // The rest of the run's items, on those and on other proposals (none when only the two are active), would blur the round's figures.
  dropItems(db(), listItemIds(db(), { runId: run.id }).filter((id) => !kept.includes(id)));
  for (const { id } of [...seeds, { id: seedId }]) updateProposal(db(), id, { status: 'active' });
  addCall(haiRunId, 0.2);
  await review(acceptReview({ complexity: 4 }));
  await review(rejectReview());
}

beforeAll(async () => {
  server = await startTestServer();
  await server.createUser('root', 'admin', 'admin-pass-123');
  await server.createUser('cora', 'curator', 'curator-pass-1');
  await server.createUser('ann', 'reviewer', 'ann-password');
  const admin = new TestClient(server.url);
  await admin.login('root', 'admin-pass-123');
  curator = new TestClient(server.url);
  await curator.login('cora', 'curator-pass-1');
  reviewer = new TestClient(server.url);
  await reviewer.login('ann', 'ann-password');
  // Reflection is driven by hand here, so automatic revisions do not change the pool mid-test.
  expect((await admin.send(settingsApi.update, { body: { auto_reflect: false, reviews_per_item: 1 } })).status).toBe(200);
  await buildMachineItems();
  await addHumanItem();
  await buildHaiItems();
  // The pool grew over two days: the first four seeds on an early one.
  backdateProposals(db(), proposalIds(db(), { origin: 'seed' }).slice(0, 4), `${EARLY_DAY}T00:00:00.000Z`);
}, 60_000);
afterAll(async () => {
  await server.close();
});

/**
 * Group seeds enter the pool when a run first plans a question over a chart group (the demo has
 * one group): four per chart type the group holds, on top of the 36 one-chart seeds.
 */
const groupSeeds = () => db().prepare("SELECT COUNT(*) FROM proposals WHERE origin = 'seed' AND scope = 'group'").pluck().get() as number;

const itemsOf = (where: string, ...params: unknown[]) =>
  db().prepare(`SELECT i.id, i.status, c.chart_type, i.proposal_id FROM hqa_items i JOIN charts c ON c.id = i.chart_id WHERE ${where}`).all(...params) as {
    id: number;
    status: string;
    chart_type: string;
    proposal_id: number | null;
  }[];

describe('the database this test built', () => {
  it('holds the items and decisions the figures below are computed from', () => {
    expect(itemsOf('i.run_id = ?', machineRunId).map((i) => i.status).sort()).toEqual(['accepted', 'accepted', 'accepted', 'accepted', 'rejected', 'rejected']);
    expect(itemsOf("i.origin = 'human'").map((i) => i.status)).toEqual(['accepted']);
    const hai = itemsOf('i.run_id = ?', haiRunId);
    expect(hai.map((i) => i.proposal_id).sort()).toEqual([childId, grandchildId].sort());
    expect(hai.map((i) => i.status).sort()).toEqual(['accepted', 'rejected']);
  });
});

describe('GET /api/analytics/pool', () => {
  it('counts the pool per origin cumulatively by day, duplicates never entering it', async () => {
    const body = await reviewer.call(analyticsApi.pool);
    const today = (db().prepare("SELECT substr(created_at, 1, 10) AS day FROM proposals WHERE id = ?").get(childId) as { day: string }).day;
    expect(body.growth).toEqual([
      { day: EARLY_DAY, origin: 'seed', cumulative: 4 },
      { day: EARLY_DAY, origin: 'generated', cumulative: 0 },
      { day: EARLY_DAY, origin: 'revised', cumulative: 0 },
      { day: today, origin: 'seed', cumulative: 36 + groupSeeds() },
      { day: today, origin: 'generated', cumulative: 1 },
      { day: today, origin: 'revised', cumulative: 1 },
    ]);
  });

  it('gives pass rates overall, per proposal, per chart type and per round', async () => {
    const { pass_rate } = await reviewer.call(analyticsApi.pool);
    // 4 + 1 + 1 accepted of 6 + 1 + 2 decided.
    expect(pass_rate.overall).toEqual({ decided: 9, accepted: 6, pass_rate: (6 / 9) * 100 });
    // Round 0: the 6 machine items; round 1: the 2 HAI items. The hand-written item has no proposal.
    expect(pass_rate.by_round).toEqual([
      { round: 0, decided: 6, accepted: 4, pass_rate: (4 / 6) * 100 },
      { round: 1, decided: 2, accepted: 1, pass_rate: 50 },
    ]);
    const decided = itemsOf("i.status IN ('accepted', 'rejected')");
    for (const row of pass_rate.by_chart_type) {
      const mine = decided.filter((i) => i.chart_type === row.chart_type);
      expect(row).toMatchObject({ decided: mine.length, accepted: mine.filter((i) => i.status === 'accepted').length });
    }
    expect(pass_rate.by_chart_type.reduce((n, r) => n + r.decided, 0)).toBe(9);
    const child = pass_rate.by_proposal.find((p) => p.proposal_id === childId);
    const childAccepted = itemsOf('i.proposal_id = ?', childId)[0]?.status === 'accepted' ? 1 : 0;
    expect(child).toMatchObject({ origin: 'revised', round: 1, items: 1, decided: 1, accepted: childAccepted, pass_rate: childAccepted * 100 });
    expect(pass_rate.by_proposal.every((p) => p.items > 0)).toBe(true);
  });

  it('draws the operation sunburst and counts distinct operations per chart type', async () => {
    const { operations, diversity } = await reviewer.call(analyticsApi.pool);
    const pool = db().prepare("SELECT chart_type, text FROM proposals WHERE status IN ('active', 'retired')").all() as { chart_type: string; text: string }[];
    expect(groupSeeds() % 4).toBe(0);
    expect(diversity.overall.proposals).toBe(38 + groupSeeds());
    expect(operations.reduce((n, o) => n + o.count, 0)).toBe(38 + groupSeeds() - diversity.overall.unparsed);
    const keys = (rows: typeof pool) => new Set(rows.flatMap((p) => { const op = extractOperation(p.text); return op ? [operationKey(op)] : []; }));
    expect(diversity.overall.distinct_operations).toBe(keys(pool).size);
    const mine = diversity.by_chart_type.find((d) => d.chart_type === chartType);
    expect(mine?.distinct_operations).toBe(keys(pool.filter((p) => p.chart_type === chartType)).size);
    // The round-1 proposal's operation is new to the pool.
    expect(operations.find((o) => o.chart_type === chartType && o.verb === 'halve' && o.noun === 'value')?.count).toBe(1);
  });
});

describe('GET /api/analytics/lineage/:id', () => {
  it('gives ancestors up to the root and all descendants with their pass rates', async () => {
    const body = await reviewer.call(analyticsApi.lineage, { params: { id: childId } });
    expect(body.root_ids).toEqual([seedId]);
    expect(body.nodes.map((n) => [n.id, n.relation, n.parent_ids])).toEqual([
      [seedId, 'ancestor', []],
      [childId, 'self', [seedId]],
      [grandchildId, 'descendant', [childId]],
    ]);
    const grandchild = body.nodes.find((n) => n.id === grandchildId);
    const accepted = itemsOf('i.proposal_id = ?', grandchildId)[0]?.status === 'accepted' ? 1 : 0;
    expect(grandchild).toMatchObject({ origin: 'generated', round: 1, decided: 1, accepted, operation: { verb: 'halve', noun: 'value' } });
    const seedItems = itemsOf('i.proposal_id = ?', seedId);
    expect(body.nodes[0]).toMatchObject({ origin: 'seed', decided: seedItems.length, accepted: seedItems.filter((i) => i.status === 'accepted').length });
  });

  it('answers 404 for a proposal that does not exist', async () => {
    expect((await reviewer.send(analyticsApi.lineage, { params: { id: 999999 } })).status).toBe(404);
  });
});

describe('GET /api/analytics/ablation', () => {
  const hours = (ms: number) => ms / 3_600_000;

  it('compares human, machine-only and HAI items with unit cost at the given hourly rate', async () => {
    const body = await curator.call(analyticsApi.ablation, { query: { reviewer_hourly_rate: 36 } });
    const group = (name: string) => body.groups.find((g) => g.group === name) as AblationRow;

    // Five accept reviews (one of them retracted) and two rejections; only standing reviews are rated.
    const machineHours = hours(5 * ACCEPT_TIME_MS + 2 * REJECT_TIME_MS);
    expect(group('machine')).toMatchObject({ items: 6, decided: 6, accepted: 4, reviews: 6, rationality_pass_rate: 100, mean_complexity: 3.5, reflection_cost: 0 });
    expect(group('machine').layout_pass_rate).toBeCloseTo((4 / 6) * 100);
    expect(group('machine').llm_cost).toBeCloseTo(0.6);
    expect(group('machine').reviewer_hours).toBeCloseTo(machineHours);
    expect(group('machine').unit_cost).toBeCloseTo((0.6 + machineHours * 36) / 4);

    expect(group('human')).toMatchObject({ items: 1, accepted: 1, pass_rate: 100, mean_complexity: 1, llm_cost: 0, operation_diversity: 1 });
    expect(group('human').unit_cost).toBeCloseTo(hours(ACCEPT_TIME_MS) * 36);

    const haiHours = hours(ACCEPT_TIME_MS + REJECT_TIME_MS);
    expect(group('hai')).toMatchObject({ items: 2, decided: 2, accepted: 1, pass_rate: 50, layout_pass_rate: 50, mean_complexity: 4, operation_diversity: 2 });
    expect(group('hai').llm_cost).toBeCloseTo(0.2);
    expect(group('hai').reflection_cost).toBeCloseTo(0.05);
    expect(group('hai').unit_cost).toBeCloseTo(0.2 + 0.05 + haiHours * 36);
    expect(body.hai_by_round).toHaveLength(1);
    expect(body.hai_by_round[0]).toMatchObject({ round: 1, items: 2, accepted: 1 });

    const seedTexts = db().prepare('SELECT DISTINCT p.text FROM hqa_items i JOIN proposals p ON p.id = i.proposal_id WHERE i.run_id = ?').all(machineRunId) as { text: string }[];
    const machineOps = new Set(seedTexts.map((p) => extractOperation(p.text)).flatMap((op) => (op ? [operationKey(op)] : [])));
    expect(group('machine').operation_diversity).toBe(machineOps.size);
  });

  it('defaults the hourly rate to 30 and refuses a negative one', async () => {
    expect((await curator.call(analyticsApi.ablation)).reviewer_hourly_rate).toBe(30);
    const bad = await curator.send(analyticsApi.ablation, { query: { reviewer_hourly_rate: -1 } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: { code: 'bad_request', field: 'query.reviewer_hourly_rate' } });
  });
});

describe('GET /api/analytics/coverage', () => {
  it('counts accepted items per operation, chart type, answer type and effect, and lists the thinnest cells', async () => {
    const body = await curator.call(analyticsApi.coverage, { query: { limit: 7 } });
    const accepted = db()
      .prepare(
        `SELECT c.chart_type, i.answer_type, i.affects_answer, COALESCE(p.text, i.assumption) AS text
         FROM hqa_items i JOIN charts c ON c.id = i.chart_id LEFT JOIN proposals p ON p.id = i.proposal_id WHERE i.status = 'accepted'`,
      )
      .all() as { chart_type: string; answer_type: string; affects_answer: number; text: string }[];
    expect(body.accepted_items).toBe(6);
    const expected = new Map<string, number>();
    for (const item of accepted) {
      const op = extractOperation(item.text);
      if (!op) continue;
      const key = `${op.verb}|${op.noun}|${item.chart_type}|${item.answer_type}|${item.affects_answer === 1}`;
      expected.set(key, (expected.get(key) ?? 0) + 1);
    }
    const got = new Map(body.cells.map((c) => [`${c.verb}|${c.noun}|${c.chart_type}|${c.answer_type}|${c.affects_answer}`, c.count]));
    expect(got).toEqual(expected);
    expect(body.cells.reduce((n, c) => n + c.count, 0) + body.unparsed_items).toBe(6);
    // The human item's assumption stands in for a proposal.
    expect(body.cells.some((c) => c.verb === 'remove' && c.noun === 'value')).toBe(true);

    expect(body.thinnest).toHaveLength(7);
    expect(body.thinnest.every((c) => c.count === 0 && c.proposal_ids.length > 0)).toBe(true);
    // Distinct gaps: no operation offers a second cell while another still has an empty one.
    expect(new Set(body.thinnest.map((c) => `${c.verb}/${c.noun}/${c.chart_type}`)).size).toBe(7);
    for (const cell of body.thinnest) {
      for (const id of cell.proposal_ids) {
        const p = db().prepare('SELECT text, chart_type, status FROM proposals WHERE id = ?').get(id) as { text: string; chart_type: string; status: string };
        expect(p).toMatchObject({ chart_type: cell.chart_type, status: 'active' });
        expect(extractOperation(p.text)).toEqual({ verb: cell.verb, noun: cell.noun });
      }
    }
  });

  it('refuses a limit out of range', async () => {
    const bad = await curator.send(analyticsApi.coverage, { query: { limit: 0 } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: { field: 'query.limit' } });
  });
});

describe('who may read analytics', () => {
  const reads = [analyticsApi.pool, analyticsApi.lineage, analyticsApi.ablation, analyticsApi.coverage];

  it('answers 401 without a session', async () => {
    for (const read of reads) expect((await anonymous().send(read, { params: { id: 1 } })).status, read.path).toBe(401);
  });

  it('lets reviewers read the pool figures and lineage, but not costs or coverage', async () => {
    expect((await reviewer.send(analyticsApi.pool)).status).toBe(200);
    expect((await reviewer.send(analyticsApi.lineage, { params: { id: seedId } })).status).toBe(200);
    expect((await reviewer.send(analyticsApi.ablation)).status).toBe(403);
    expect((await reviewer.send(analyticsApi.coverage)).status).toBe(403);
  });
});
