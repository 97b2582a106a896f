import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itemsApi } from '../../shared/api/items';
import { reverifyItem } from '../../server/items/reverify-items';
import { insertProposal } from '../../server/pool/pool-queries';
import { putSettings } from '../../server/settings/settings-queries';
import type { ChartType } from '../../shared/domain/chart-types';
import { tableFromCells } from '../../shared/table/model';
import { buildChart, buildQa, proposalIds, setProposalStatus, setTablesConfirmed } from '../support/factories';
import { correctReply } from '../support/fake-hqa-model';
import { jsonReply, type FakeChatRequest } from '../support/fake-openai';
import { startGenerationServer, type GenerationServer } from '../support/generation-server';

/**
 * A model's item a strict reviewer would reject never reaches reviewers by default: the run ends
 * its task with the finding that refused it. With keep_items_with_errors on, the item is stored
 * and carries the finding as its flag. An item whose program fails is never stored on the model's
 * word that its answer changed.
 */

let generation: GenerationServer;
beforeAll(async () => {
  generation = await startGenerationServer();
});
afterAll(async () => {
  await generation.close();
});

const NULL_OP = { row: null, series: null, value: null, factor: null, delta: null, rows: null, values: null };

/**
 * One model item on a chart of its own (table confirmed, one factual QA), the fake answering every
 * request with `reply` (its ops filled to the strict wire's every field): the run's report, and
 * the one item it stored, read back through the API.
 */
async function oneModelItem(
  split: string,
  chart: { chartType: ChartType; header: string[]; rows: string[][] },
  qa: { query: string; label: string },
  reply: { assumption: string; asked: string; rationale: string; edit: Record<string, unknown>[]; program: string; answer: string },
) {
  const db = generation.server.server.ctx.db;
  const chartId = buildChart(db, { split, chartType: chart.chartType, table: tableFromCells(chart.header, chart.rows) });
  setTablesConfirmed(db, [chartId]);
  buildQa(db, { chartId, ...qa });
  generation.fake.setDefault(() =>
    jsonReply({
      assumption: reply.assumption,
      question: `${reply.assumption} ${reply.asked}`,
      rationale: reply.rationale,
      edit: reply.edit.map((op) => ({ ...NULL_OP, ...op })),
      program: reply.program,
      answer: reply.answer,
      answer_type: 'decimal',
      affects_answer: true,
    }),
  );
  const { run, errors } = await generation.runToEnd({ engine: 'openai', stage: 'items', split, items: 1, concurrency: 1 });
  expect(run, JSON.stringify(errors)).toMatchObject({ items_created: 1 });
  const [summary] = (await generation.curator.call(itemsApi.list, { query: { run_id: run.id } })).items;
  const read = async () => (await generation.curator.call(itemsApi.get, { params: { id: summary?.id ?? 0 } })).item;
  return { id: summary?.id ?? 0, item: await read(), read };
}

/** The fake's sound item asked as "which is largest?", its assumption saying where the value lands: a rank clause giving the answer away. */
function rankClauseItem(chat: FakeChatRequest) {
  // In choose mode the same item under the first listed proposal.
  const item = correctReply(chat);
  const series = /, ("(?:[^"\\]|\\.)*")\)$/.exec(item.program)?.[1] ?? '""';
  const assumption = item.assumption.replace(/\.$/, ', taking it above every other value.');
  return { ...item, assumption, question: `${assumption} Which would be the largest?`, program: `argmax(series(${series}))`, answer: 'x', answer_type: 'text' };
}

describe('items the checks call errors', () => {
  it('are not stored by default, the run naming the finding; kept and flagged when the setting says so', async () => {
    generation.fake.setDefault((chat) => jsonReply(rankClauseItem(chat)));
    const refused = await generation.runToEnd({ engine: 'openai', stage: 'items', chart_type: 'vertical_bar', items: 2, concurrency: 1 });
    expect(refused.run).toMatchObject({ status: 'done', items_created: 0 });
    // (The demo's image-only chart fails for its own reason.)
    expect(refused.errors.filter((error) => /^lint_error: rank_clause/.test(error.error)).length, JSON.stringify(refused)).toBeGreaterThan(0);

    putSettings(generation.server.server.ctx.db, { keep_items_with_errors: true });
    try {
      const kept = await generation.runToEnd({ engine: 'openai', stage: 'items', chart_type: 'vertical_bar', items: 6, concurrency: 1, only_new_qas: false });
      const items = (await generation.curator.call(itemsApi.list, { query: { run_id: kept.run.id } })).items;
      expect(items.length, JSON.stringify(kept)).toBeGreaterThan(0);
      for (const summary of items) {
        const { item } = await generation.curator.call(itemsApi.get, { params: { id: summary.id } });
        expect(item.verifier.lint).toContainEqual(expect.objectContaining({ code: 'rank_clause', severity: 'error' }));
      }
    } finally {
      putSettings(generation.server.server.ctx.db, { keep_items_with_errors: false });
    }
  });

  it('an item whose program fails is not stored, whatever the model says about its answer', async () => {
    generation.fake.setDefault((chat) => jsonReply({ ...correctReply(chat), program: 'value("no such row")' }));
    const { run, errors } = await generation.runToEnd({ engine: 'openai', stage: 'items', chart_type: 'line', items: 1, concurrency: 1 });
    expect(run).toMatchObject({ items_created: 0, items_failed: 1 });
    expect(errors[0]?.error).toMatch(/^verifier_error: the program failed \(unknown row "no such row"/);
  });

  it('an item whose answer is the factual label is not stored, however its program reads the table', async () => {
    // A ChartQA label the table contradicts ("Eden Hazard" leads, the table says Lukaku) can equal a changed answer.
    generation.fake.setDefault((chat) => {
      // The user message's label (the system message's worked examples have theirs too).
      const user = chat.messages.filter((m) => m.role === 'user').map((m) => (typeof m.content === 'string' ? m.content : (m.content ?? []).map((part) => part.text ?? '').join('\n'))).join('\n');
      const label = [...user.matchAll(/^Label: (.*)$/gm)].at(-1)?.[1] ?? '';
      return jsonReply({ ...correctReply(chat), answer: label });
    });
    const { errors } = await generation.runToEnd({ engine: 'openai', stage: 'items', chart_type: 'line', items: 1, concurrency: 1, only_new_qas: false });
    expect(errors.map((error) => error.error), JSON.stringify(errors)).toContainEqual(expect.stringMatching(/^answer_unchanged: the item.s answer is the factual label itself/));
  });
});

describe('the offline engine and the plausible-change setting', () => {
  it('writes no tripling under the default; writes it once max_change_share allows it, as the server checks it', async () => {
    const db = generation.server.server.ctx.db;
    const split = 'plausible-setting';
    const chartId = buildChart(db, { split, chartType: 'horizontal_bar', table: tableFromCells(['Country', 'Value'], [['Italy', '30'], ['Spain', '40'], ['France', '50']]) });
    setTablesConfirmed(db, [chartId]);
    buildQa(db, { chartId, query: 'What is the value of Italy?', label: '30' });
    // The pool of the type holds only triplings, so the rules cannot pair the question with another operation;
    // two of them, as a run plans a question with a proposal no earlier run paired it with.
    setProposalStatus(db, 'retired', proposalIds(db, { chartType: 'horizontal_bar' }));
    for (const text of ['Triple the value of the bar the question asks about.', 'Make the bar the question asks about three times as long.']) {
      insertProposal(db, { chart_type: 'horizontal_bar', text, origin: 'seed', status: 'active' });
    }

    const strict = await generation.runToEnd({ engine: 'offline', stage: 'items', split, items: 1, concurrency: 1 });
    expect(strict.run, JSON.stringify(strict)).toMatchObject({ status: 'done', items_created: 0 });

    putSettings(db, { max_change_share: 0.75 });
    try {
      const allowed = await generation.runToEnd({ engine: 'offline', stage: 'items', split, items: 1, concurrency: 1, only_new_qas: false });
      expect(allowed.run, JSON.stringify(allowed)).toMatchObject({ status: 'done', items_created: 1 });
      const [summary] = (await generation.curator.call(itemsApi.list, { query: { run_id: allowed.run.id } })).items;
      const { item } = await generation.curator.call(itemsApi.get, { params: { id: summary?.id ?? 0 } });
      expect(item.answer).toBe('90');
      expect(item.verifier.lint.filter((finding) => finding.code === 'implausible_change')).toEqual([]);
    } finally {
      putSettings(db, { max_change_share: 0.5 });
    }
  });
});

describe('a model answer with more decimals than the chart shows', () => {
  it('is stored at the chart\'s precision, with a note saying so; the verifier still matches it', async () => {
    const { item } = await oneModelItem(
      'answer-precision',
      { chartType: 'vertical_bar', header: ['Country', 'Rate'], rows: [['Italy', '14.2'], ['Spain', '16.1'], ['France', '15.3']] },
      { query: 'What is the rate of Italy?', label: '14.2' },
      { assumption: 'Suppose the rate of Italy were 10% higher.', asked: 'What would the rate of Italy be?', rationale: '14.2 × 1.1 = 15.62.', edit: [{ op: 'scale', row: 'Italy', factor: 1.1 }], program: 'value("Italy")', answer: '15.62' },
    );
    expect(item.answer).toBe('15.6');
    expect(item.verifier.match).toBe(true);
    expect(item.verifier.lint).toContainEqual({ code: 'answer_rounded', severity: 'info', message: 'the answer 15.62 was rounded to 15.6, the decimals the chart shows' });
    // Its program gives the factual label on the original chart: nothing to say about its reading.
    expect(item.verifier.lint.map((finding) => finding.code)).not.toContain('misses_factual_label');
  });
});

describe('a model item whose program does not give the factual label on the original chart', () => {
  it('is stored with a warning naming both answers, which re-verification keeps', async () => {
    const db = generation.server.server.ctx.db;
    putSettings(db, { keep_items_with_errors: true });
    try {
      // "The light blue bar" is on the image; the model took the wrong series (ChartQA 1304: the median read 45.5, the label 37).
      const { id, item, read } = await oneModelItem(
        'misses-label',
        { chartType: 'grouped_bar', header: ['Group', 'Somewhat likely', 'Very likely'], rows: [['Dem', '20', '37'], ['Rep', '54', '85'], ['Total', '37', '35']] },
        { query: 'What is the value of Somewhat likely for Total?', label: '37' },
        {
          assumption: 'Suppose every Very likely share were halved.',
          asked: 'What is the value of Somewhat likely for Total?',
          rationale: '35 / 2 = 17.5.',
          edit: [{ op: 'scale', series: 'Very likely', factor: 0.5 }],
          program: 'value("Total", "Very likely")',
          answer: '17.5',
        },
      );
      const finding = {
        code: 'misses_factual_label',
        severity: 'warning',
        message: "the program gives 35 on the original chart, but the factual question's label is 37: it may read another series or row than the question means",
      };
      expect(item.verifier.lint).toContainEqual(finding);
      // Verified again (as after a curator's edit): the finding is the verifier's, so it is found again.
      reverifyItem(db, id);
      expect((await read()).verifier.lint).toContainEqual(finding);
    } finally {
      putSettings(db, { keep_items_with_errors: false });
    }
  });
});
