import { describe, expect, it } from 'vitest';
import { tableFromCells } from '../../../shared/table/model';
import { verifyItem } from '../../../shared/table/verify';
import { offlineGroupItem, type OfflineGroupChart } from './group-item';

// A line of sales (chart 1) and bars of costs (chart 2), by year, as the demo's group shows them.
const charts: OfflineGroupChart[] = [
  // Sales swing by up to 20 a year: a doubled 2019 (20) is a step such a line has taken.
  { table: tableFromCells(['Year', 'Sales'], [['2019', '10'], ['2020', '30'], ['2021', '12'], ['2022', '25']]), chartType: 'line', title: 'Sales, $m' },
  { table: tableFromCells(['Year', 'Costs'], [['2019', '6'], ['2020', '13'], ['2021', '9'], ['2022', '6']]), chartType: 'vertical_bar', title: 'Costs, $m' },
];
// Doubled, not tripled: a strict reviewer takes a value raised past ×2 for an implausible premise.
const DOUBLE = { id: 1, text: 'Double the value the question asks about in one chart so that the comparison between the charts may flip, while the other charts keep their values.' };
const HALVE = { id: 2, text: 'Halve the value the question asks about in one chart and keep the rest of the group unchanged.' };
const RAISE = { id: 3, text: 'Raise the value the question asks about in one chart by a modest amount, and leave the other charts of the group as they are.' };

function build(query: string, label: string, proposal: { id: number; text: string }, chartType: OfflineGroupChart['chartType'] = 'line') {
  const result = offlineGroupItem({ charts, qa: { query, label }, proposal: { ...proposal, chartType }, seed: 7 });
  if (!result.ok) throw new Error(result.reason);
  return result.draft;
}

/** The one rule: the item verifies over the group, its edit names one chart, and the assumption moves the answer. */
function expectGroupItem(draft: ReturnType<typeof build>, chart: number) {
  const edit = draft.edit ?? [];
  expect(edit.length).toBeGreaterThan(0);
  for (const op of edit) expect(op.chart).toBe(chart);
  const verdict = verifyItem({ group: charts, edit, program: draft.program ?? '', answer: draft.answer });
  expect(verdict).toMatchObject({ match: true, answer_unchanged: false, error: null });
  return verdict;
}

describe('offline items over a chart group', () => {
  it('difference: edits the line chart (the proposal\'s type) in the asked year and asks the same question', () => {
    const draft = build('What is the difference between Sales in the first chart and Costs in the second chart in 2019?', '4', DOUBLE);
    expect(draft.program).toBe('diff(value(1, "2019", "Sales"), value(2, "2019", "Costs"))');
    expect(draft.edit).toEqual([{ op: 'scale', row: '2019', series: 'Sales', factor: 2, chart: 1 }]);
    expect(draft.assumption).toMatch(/^Suppose that, in the first chart, /);
    expect(draft.question).toBe(`${draft.assumption} What would be the difference between Sales in the first chart and Costs in the second chart in 2019?`);
    expect(expectGroupItem(draft, 1).recomputed_answer).toBe('14');
    expect(draft.answer).toBe('14');
  });

  it('comparison: the assumption flips the answer, editing the bar chart when the proposal is of its type', () => {
    const draft = build('Is Sales in the first chart higher than Costs in the second chart in 2019?', 'Yes', DOUBLE, 'vertical_bar');
    expect(draft.edit).toEqual([{ op: 'scale', row: '2019', series: 'Costs', factor: 2, chart: 2 }]);
    expect(draft.assumption).toMatch(/^Suppose that, in the second chart, /);
    expect(draft.question).toMatch(/Would Sales in the first chart be higher than Costs in the second chart in 2019\?$/);
    expect(draft.answer).toBe('No');
    expect(expectGroupItem(draft, 2).original_answer).toBe('Yes');
  });

  it('"when … was highest": a change to the first chart moves the peak, so the second chart is read in another year', () => {
    const draft = build('In the year when Sales in the first chart was highest, what was Costs in the second chart?', '13', RAISE);
    expect(draft.program).toBe('value(2, chart(1, argmax(series("Sales"))), "Costs")');
    const verdict = expectGroupItem(draft, 1);
    expect(verdict.original_answer).toBe('13');
    expect(draft.question).toMatch(/In the year when Sales in the first chart would be highest, what would Costs in the second chart be\?$/);
  });

  it('total: follows the proposal\'s operation (halve, raise) on the chart of its type', () => {
    const halved = build('What is the total of Sales in the first chart and Costs in the second chart in 2020?', '43', HALVE, 'vertical_bar');
    expect(halved.edit).toEqual([{ op: 'scale', row: '2020', series: 'Costs', factor: 0.5, chart: 2 }]);
    expect(expectGroupItem(halved, 2).recomputed_answer).toBe('36.5');
    const raised = build('What is the total of Sales in the first chart and Costs in the second chart in 2020?', '43', RAISE);
    expect(raised.edit?.[0]).toMatchObject({ op: 'add', row: '2020', series: 'Sales', chart: 1 });
    expectGroupItem(raised, 1);
  });

  it('makes no item, and says why, for a question it cannot read or a proposal type no chart the question reads has', () => {
    const unread = offlineGroupItem({ charts, qa: { query: 'Which chart grows faster?', label: 'Sales' }, proposal: { ...DOUBLE, chartType: 'line' }, seed: 1 });
    expect(unread).toMatchObject({ ok: false, cause: 'unprogrammable', reason: expect.stringMatching(/cannot turn the group question into a program/) });
    const pie = offlineGroupItem({ charts, qa: { query: 'What is the total of Sales in the first chart and Costs in the second chart in 2020?', label: '43' }, proposal: { ...DOUBLE, chartType: 'pie' }, seed: 1 });
    expect(pie).toMatchObject({ ok: false, reason: expect.stringContaining('proposal 1: the question reads no pie chart of the group, so a pie proposal has no chart to edit') });
  });

  it('pairs the question with an alternative of another chart type when the task\'s proposal cannot move the answer', () => {
    // Sales 10 against costs 6 in 2019: raising the line leaves it higher; doubling the bars flips it.
    const result = offlineGroupItem({
      charts,
      qa: { query: 'Is Sales in the first chart higher than Costs in the second chart in 2019?', label: 'Yes' },
      proposal: { ...RAISE, chartType: 'line' },
      alternatives: [{ ...DOUBLE, chartType: 'vertical_bar' }],
      seed: 3,
    });
    expect(result).toMatchObject({ ok: true, proposalId: DOUBLE.id, draft: { answer: 'No', edit: [{ chart: 2, op: 'scale', factor: 2 }] } });
  });

  it('builds the same item from the same seed (a resumed run writes it again)', () => {
    const input = { charts, qa: { query: 'What is the total of Sales in the first chart and Costs in the second chart in 2021?', label: '21' }, proposal: { ...RAISE, chartType: 'line' as const }, seed: 42 };
    expect(offlineGroupItem(input)).toEqual(offlineGroupItem(input));
  });
});
