import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itemsApi } from '../../shared/api/items';
import { poolApi } from '../../shared/api/pool';
import type { ChartType } from '../../shared/domain/chart-types';
import { tableFromCells } from '../../shared/table/model';
import { insertProposal } from '../../server/pool/pool-queries';
import { ensureGroupSeedProposals } from '../../server/pool/group-seeds';
import { jsonReply, type FakeChatRequest, type FakeOpenAI } from '../support/fake-openai';
import { schemaName } from '../support/fake-hqa-model';
import { addChartImage, buildChart, buildChartGroup, buildQa, proposalIds, setProposalStatus, setTablesConfirmed } from '../support/factories';
import { startGenerationServer, type GenerationServer, type RunDetail } from '../support/generation-server';
import type { TestClient } from '../support/http-client';
import type { TestServer } from '../support/test-server';

let generation: GenerationServer | undefined;
let server: TestServer;
let curator: TestClient;
let fake: FakeOpenAI;
const db = () => server.server.ctx.db;

beforeAll(async () => {
  generation = await startGenerationServer();
  ({ server, curator, fake } = generation);
});
afterAll(async () => {
  await generation?.close();
});

function runToEnd(config: Record<string, unknown>): Promise<RunDetail> {
  if (!generation) throw new Error('the generation server did not start');
  return generation.runToEnd(config);
}

/** Sales as a line (chart 1) and costs as bars (chart 2), by year: a group a curator made, its tables confirmed. */
function salesAndCosts(split: string): { groupId: number; charts: number[] } {
  const charts = [
    buildChart(db(), { split, chartType: 'line', title: 'Sales, $m', table: tableFromCells(['Year', 'Sales'], [['2019', '10'], ['2020', '12'], ['2021', '15']]) }),
    buildChart(db(), { split, chartType: 'vertical_bar', title: 'Costs, $m', table: tableFromCells(['Year', 'Costs'], [['2019', '8'], ['2020', '13'], ['2021', '9']]) }),
  ];
  setTablesConfirmed(db(), charts);
  return { groupId: buildChartGroup(db(), { chartIds: charts, split }), charts };
}

function runItems(split: string, engine: 'offline' | 'openai' = 'offline'): Promise<RunDetail> {
  return runToEnd({ engine, stage: 'items', split, items: 10, concurrency: 1 });
}

const taskPairs = (runId: number) =>
  db().prepare('SELECT t.qa_id, t.chart_type, p.scope, p.chart_type AS proposal_type FROM run_tasks t JOIN proposals p ON p.id = t.proposal_id WHERE t.run_id = ? ORDER BY t.id').all(runId) as {
    qa_id: number;
    chart_type: ChartType;
    scope: string;
    proposal_type: ChartType;
  }[];

describe('an offline run over a chart group', () => {
  it('pairs the group question with a group proposal and writes a verified item that edits one chart', async () => {
    const { groupId, charts } = salesAndCosts('grp-offline');
    const groupQa = buildQa(db(), { chartId: charts[0] as number, groupId, query: 'Is Sales in the first chart higher than Costs in the second chart in 2019?', label: 'Yes' });
    const singleQa = buildQa(db(), { chartId: charts[1] as number, query: 'What is the value of 2019?', label: '8' });

    const { run, errors } = await runItems('grp-offline');
    expect(run.status).toBe('done');
    const pairs = taskPairs(run.id);
    // Each question drew from its own kind of proposal; the group's from a type one of its charts has.
    expect(pairs.find((pair) => pair.qa_id === groupQa)).toMatchObject({ scope: 'group' });
    expect(['line', 'vertical_bar']).toContain(pairs.find((pair) => pair.qa_id === groupQa)?.proposal_type);
    expect(pairs.find((pair) => pair.qa_id === singleQa)).toMatchObject({ scope: 'chart', proposal_type: 'vertical_bar' });
    // The planner entered the group seeds for the types of the group it met (the pool had none before).
    const group = await curator.call(poolApi.list, { query: { scope: 'group', page_size: 200 } });
    expect([...new Set(group.proposals.map((p) => p.chart_type))].sort()).toEqual(['line', 'vertical_bar']);
    expect(group.proposals.every((p) => p.scope === 'group' && p.origin === 'seed')).toBe(true);
    const chartScope = await curator.call(poolApi.list, { query: { scope: 'chart', origin: 'seed', page_size: 200 } });
    expect(chartScope.total).toBe(36);

    const items = (await curator.call(itemsApi.list, { query: { run_id: run.id, page_size: 50 } })).items;
    const item = items.find((candidate) => candidate.qa_id === groupQa);
    expect(item, JSON.stringify(errors)).toBeDefined();
    const detail = (await curator.call(itemsApi.get, { params: { id: item?.id ?? 0 } })).item;
    expect(detail.verifier).toMatchObject({ match: true, answer_unchanged: false, error: null, original_answer: 'Yes', recomputed_answer: 'No' });
    expect(detail.answer).toBe('No');
    expect(detail.program).toBe('if(value(1, "2019", "Sales") > value(2, "2019", "Costs"), "Yes", "No")');
    const edit = detail.edit as { chart: number }[];
    const edited = edit[0]?.chart;
    expect(edit.every((op) => op.chart === edited)).toBe(true);
    expect(detail.question).toMatch(/Would Sales in the first chart be higher than Costs in the second chart in 2019\?$/);
  });

  it('makes no item when a chart of the group has no confirmed table, and names that chart', async () => {
    const { groupId, charts } = salesAndCosts('grp-unconfirmed');
    setTablesConfirmed(db(), charts.slice(1, 2), false);
    buildQa(db(), { chartId: charts[0] as number, groupId, query: 'What is the total of Sales in the first chart and Costs in the second chart in 2020?', label: '25' });
    const { run, errors } = await runItems('grp-unconfirmed');
    expect(run).toMatchObject({ status: 'done', items_created: 0, items_failed: 1 });
    const imgname = (db().prepare('SELECT imgname FROM charts WHERE id = ?').get(charts[1]) as { imgname: string }).imgname;
    const group = (db().prepare('SELECT name FROM chart_groups WHERE id = ?').get(groupId) as { name: string }).name;
    expect(errors[0]?.error).toBe(`chart grp-unconfirmed/${imgname} (chart 2 of group ${group}) has no confirmed data table: the offline engine makes no items for it`);
  });

  it('pairs a single-chart question with no group proposal, even when the pool holds only those for its type', async () => {
    const chart = buildChart(db(), { split: 'grp-single', chartType: 'scatter', table: tableFromCells(['Point', 'X'], [['a', '1'], ['b', '2']]) });
    setProposalStatus(db(), 'retired', proposalIds(db(), { chartType: 'scatter', scope: 'chart' }));
    insertProposal(db(), { chart_type: 'scatter', scope: 'group', text: 'Halve the value the question asks about in one chart and keep the rest of the group unchanged.', origin: 'seed', status: 'active' });
    buildQa(db(), { chartId: chart, query: 'What is the value of b?', label: '2' });
    const { run } = await runItems('grp-single');
    expect(run.tasks_total).toBe(0);
    setProposalStatus(db(), 'active', proposalIds(db(), { chartType: 'scatter', scope: 'chart', origin: 'seed' }));
  });
});

// Two different small PNGs standing in for the charts' images, so their order on the wire shows
// (within the vision_max_side setting, they go out as stored).
const png = (background: string) => sharp({ create: { width: 40, height: 30, channels: 3, background } }).png().toBuffer();
const IMAGE_1 = await png('#c00000');
const IMAGE_2 = await png('#0000c0');
const DOUBLE = 'Double the value the question asks about in one chart so that the comparison between the charts may flip, while the other charts keep their values.';

/** A group reply that doubles chart 2's 2019 costs, as the wire carries it (every field present); `chart` null on the op when `unnamed`. */
function doubleCosts(unnamed = false) {
  return {
    assumption: 'Suppose that, in the second chart, the costs of 2019 were doubled.',
    question: 'Suppose that, in the second chart, the costs of 2019 were doubled. Would Sales in the first chart be higher than Costs in the second chart in 2019?',
    rationale: 'Costs become 16, above sales of 10.',
    edit: [{ op: 'scale', chart: unnamed ? null : 2, row: '2019', series: 'Costs', value: null, factor: 2, delta: null, rows: null, values: null }],
    program: 'if(value(1, "2019", "Sales") > value(2, "2019", "Costs"), "Yes", "No")',
    answer: 'No',
    answer_type: 'boolean',
    affects_answer: true,
  };
}

const userParts = (chat: FakeChatRequest | undefined) => {
  const content = chat?.messages.find((m) => m.role === 'user')?.content;
  return Array.isArray(content) ? content : [];
};

describe('an openai run over a chart group', () => {
  /** A group question whose only group proposal edits a bar chart (the seeds of other types retired). */
  function groupQuestion(split: string): number {
    const { groupId, charts } = salesAndCosts(split);
    addChartImage(db(), charts[0] as number, IMAGE_1);
    addChartImage(db(), charts[1] as number, IMAGE_2);
    ensureGroupSeedProposals(db(), ['line', 'vertical_bar']);
    const kept = proposalIds(db(), { scope: 'group', chartType: 'vertical_bar', text: DOUBLE });
    setProposalStatus(db(), 'retired', proposalIds(db(), { scope: 'group' }).filter((id) => !kept.includes(id)));
    return buildQa(db(), { chartId: charts[0] as number, groupId, query: 'Is Sales in the first chart higher than Costs in the second chart in 2019?', label: 'Yes' });
  }

  it('shows the model every chart\'s table and image in order, and stores the verified item it writes', async () => {
    const qaId = groupQuestion('grp-openai');
    const before = fake.requests.length;
    fake.setDefault((chat) => jsonReply(schemaName(chat) === 'hqa_group_item' ? doubleCosts() : { proposals: [] }));
    const { run, errors } = await runItems('grp-openai', 'openai');
    expect(run, JSON.stringify(errors)).toMatchObject({ status: 'done', items_created: 1, items_failed: 0 });
    const request = fake.requests.slice(before).find((r) => r.chat && schemaName(r.chat) === 'hqa_group_item');
    const parts = userParts(request?.chat);
    const images = parts.filter((part) => part.type === 'image_url').map((part) => JSON.stringify(part));
    expect(images).toHaveLength(2);
    expect(images[0]).toContain(IMAGE_1.toString('base64'));
    expect(images[1]).toContain(IMAGE_2.toString('base64'));
    const text = parts.find((part) => part.type === 'text')?.text ?? '';
    expect(text).toContain('Chart 1 (Line): Sales, $m');
    expect(text).toContain("Chart 2 (Vertical bar), of the proposal's type: Costs, $m");
    expect(text).toContain('Year,Sales\n2019,10\n2020,12\n2021,15');
    expect(text).toContain('Year,Costs\n2019,8\n2020,13\n2021,9');
    expect(text.indexOf('Chart 1 (')).toBeLessThan(text.indexOf('Chart 2 ('));
    expect(JSON.stringify(request?.body)).toContain('"chart"');

    const items = (await curator.call(itemsApi.list, { query: { run_id: run.id } })).items;
    const detail = (await curator.call(itemsApi.get, { params: { id: items.find((item) => item.qa_id === qaId)?.id ?? 0 } })).item;
    expect(detail.edit).toEqual([{ op: 'scale', chart: 2, row: '2019', series: 'Costs', factor: 2 }]);
    expect(detail.verifier).toMatchObject({ match: true, answer_unchanged: false, recomputed_answer: 'No', original_answer: 'Yes' });
  });

  it('asks again, naming the op, when the edit does not name its chart; fails the task by that name when it still does not', async () => {
    groupQuestion('grp-unnamed-fixed');
    let calls = 0;
    fake.setDefault(() => jsonReply(doubleCosts(++calls === 1)));
    const before = fake.requests.length;
    const fixed = await runItems('grp-unnamed-fixed', 'openai');
    expect(fixed.run).toMatchObject({ status: 'done', items_created: 1 });
    const repair = fake.requests.slice(before).at(-1);
    expect(JSON.stringify(repair?.body)).toContain('edit.0.chart: op 0 does not name its chart: this item spans 2 charts');

    groupQuestion('grp-unnamed');
    fake.setDefault(() => jsonReply(doubleCosts(true)));
    const failed = await runItems('grp-unnamed', 'openai');
    expect(failed.run).toMatchObject({ status: 'done', items_created: 0, items_failed: 1 });
    expect(failed.errors[0]?.error).toMatch(/edit\.0\.chart: op 0 does not name its chart/);
  });
});

describe('Stage 1 of a model run, where the pool holds group proposals', () => {
  it('asks for group proposals beside the single-chart ones, from group examples, and keeps their scope', async () => {
    // The runs above left one active group proposal of the vertical bar type (the seed that raised the costs).
    const before = fake.requests.length;
    let call = 0;
    fake.setDefault((chat) => {
      call++;
      const grouped = JSON.stringify(chat.messages).includes('GROUP of two to four charts');
      return jsonReply({ proposals: [grouped ? `Quadruple the value the question asks about in one chart, variant ${call}.` : `Swap the two tallest bars of the chart, variant ${call}.`] });
    });
    const { run } = await runToEnd({ engine: 'openai', stage: 'proposals', chart_type: 'vertical_bar', proposal_batches: 1 });
    expect(run).toMatchObject({ status: 'done', tasks_total: 2, proposals_created: 2 });
    const stage1 = fake.requests.slice(before).filter((r) => r.chat && schemaName(r.chat) === 'proposal_batch');
    const groupRequest = stage1.find((r) => JSON.stringify(r.body).includes('GROUP of two to four charts'));
    expect(groupRequest, 'one Stage 1 call asks for group proposals').toBeDefined();
    expect(JSON.stringify(groupRequest?.body)).toContain(DOUBLE.slice(0, 40));
    const made = (await curator.call(poolApi.list, { query: { origin: 'generated', chart_type: 'vertical_bar', page_size: 200 } })).proposals.filter((p) => p.run_id === run.id);
    expect(made.map((p) => [p.scope, p.text.split(',')[0]]).sort()).toEqual([
      ['chart', 'Swap the two tallest bars of the chart'],
      ['group', 'Quadruple the value the question asks about in one chart'],
    ]);
  });
});
