import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inferChartType } from '../../shared/domain/infer-chart-type';
import { MAX_CANDIDATES } from '../../shared/generation/pairing';
import { CHARTQA_SAMPLE } from '../../test/support/paths';
import type { QaWithChart } from '../charts/chart-queries';
import { readTableCsv } from '../import/csv-table';
import { seedProposals } from '../llm/templates';
import type { PoolProposal } from './alternatives';
import { candidatesFor, decidePairing, pairingFrom } from './pairing';

/** A real ChartQA sample question on its chart, as a run reads it. */
function sampleSource(stem: string, query: string): QaWithChart {
  const qas = ['test_human.json', 'test_augmented.json'].flatMap(
    (file) => JSON.parse(readFileSync(resolve(CHARTQA_SAMPLE, file), 'utf8')) as { imgname: string; query: string; label: string }[],
  );
  const qa = qas.find((each) => each.imgname === `${stem}.png` && each.query === query);
  if (!qa) throw new Error(`the sample has no question ${JSON.stringify(query)} on ${stem}`);
  const table = readTableCsv(resolve(CHARTQA_SAMPLE, 'tables', `${stem}.csv`));
  return {
    qa: { id: 1, chart_id: 1, query: qa.query, label: qa.label, source: 'human' },
    chart: { id: 1, imgname: `${stem}.png`, split: 'sample', chart_type: inferChartType(table), title: stem, table },
    group: null,
  };
}

/** The chart type's hand-written seeds as a fresh pool holds them, ids 1–4. */
function seedPool(source: QaWithChart): PoolProposal[] {
  const type = source.chart.chart_type;
  return seedProposals()[type].map((text, index) => ({ id: index + 1, text, chartType: type }));
}

const decide = (source: QaWithChart, [proposal, ...alternatives]: PoolProposal[], control = false) => {
  if (!proposal) throw new Error('an empty pool');
  return decidePairing({ source, proposal, alternatives, control, seed: 7 });
};

describe('pairing a model task with a proposal that can change its answer', () => {
  it('pairs a lookup the rules program with a proposal whose operation changes it, even when the task’s own cannot', async () => {
    // "Raise the smallest bar until it becomes the largest" cannot move Slovenia's value (it is not the smallest bar); a quarter off every bar can.
    const source = sampleSource('01499440003158', 'What is the value of Slovenia in the graph?');
    const pool = seedPool(source);
    expect(await decide(source, pool.slice(0, 1))).toMatchObject({ kind: 'none' });
    expect(await decide(source, pool)).toEqual({ kind: 'paired', proposalId: 2 });
  });

  it('offers a question the rules cannot program to the model as a list, the task’s proposal first', async () => {
    const source = sampleSource('01499440003158', 'What is the difference in value between Green bar and Orange bar?');
    const pool = seedPool(source);
    const pairing = await decide(source, pool);
    expect(pairing).toEqual({ kind: 'choose', candidateIds: [1, 2, 3, 4] });
  });

  it('offers first, for a colour question the rules cannot program, a proposal that moves the series peaking in the label’s year', async () => {
    // "Which year the value of red bar is high?" (2020): the red series is on the image; the series peaking in 2020 stands in.
    const source = sampleSource('multi_col_803', 'Which year the value of red bar is high ?');
    const pool: PoolProposal[] = [
      { id: 1, text: 'Remove one series from the legend entirely.', chartType: source.chart.chart_type },
      { id: 2, text: 'Add a new category whose bars sit at each series\' average.', chartType: source.chart.chart_type },
      { id: 3, text: 'Let the value asked about in the question fall noticeably, to test reading rather than recall.', chartType: source.chart.chart_type },
    ];
    const pairing = await decide(source, pool);
    expect(pairing).toMatchObject({ kind: 'choose' });
    if (pairing.kind === 'choose') expect(pairing.candidateIds[0]).toBe(3);
  });

  it('sends nothing for a question whose label the table contradicts, or whose answer is only a legend', async () => {
    const arrests = await decide(sampleSource('two_col_434', 'What was the number of arrests in 1990?'), seedPool(sampleSource('two_col_434', 'What was the number of arrests in 1990?')));
    expect(arrests).toEqual({ kind: 'none', reason: expect.stringMatching(/^no request was sent: the factual label \("14005615"\) disagrees with the table, which gives 14195100 for 1990's Number of arrests/) });
    const legend = sampleSource('10476815004500', 'Which country represents in red line ?');
    expect(await decide(legend, seedPool(legend))).toEqual({ kind: 'none', reason: expect.stringMatching(/^no request was sent: the factual question asks what a colour stands for \(its label: "Benin"\)/) });
  });

  it('sends nothing for a question the rules programmed that no proposal of the pool can change', async () => {
    // "What does the largest bar represent?": no seed's edit moves Cuba off the top within the checks.
    const source = sampleSource('OECD_WOMEN_IN_POLITICS_AGO_AZE_CUB_ECU_THA_000002', 'What does the largest bar represent?');
    const pairing = await decide(source, seedPool(source));
    expect(pairing.kind).toBe('none');
    if (pairing.kind === 'none') expect(pairing.reason).toMatch(/^no proposal can change this answer, so no request was sent: the offline rules found no proposal's operation could be made/);
  });
});

describe('the candidates of a choose request', () => {
  const proposal: PoolProposal = { id: 10, text: 'Merge the two smallest slices into one.', chartType: 'pie' };
  const readable = (id: number): PoolProposal => ({ id, text: `Double the smallest slice and take the points from the largest (${id}).`, chartType: 'pie' });

  it('lists the task’s own proposal first, then the least used readable others, at most five', () => {
    const unreadable: PoolProposal = { id: 11, text: 'Merge the two largest slices into one.', chartType: 'pie' };
    const candidates = candidatesFor(proposal, [readable(3), unreadable, readable(4), readable(5), readable(6), readable(7)]);
    expect(candidates.map((candidate) => candidate.id)).toEqual([10, 3, 4, 5, 6]);
    expect(candidates).toHaveLength(MAX_CANDIDATES);
  });

  it('turns each cause of the rules into its decision', () => {
    const alternatives = [readable(3)];
    expect(pairingFrom({ ok: true, proposalId: 3 }, proposal, alternatives)).toEqual({ kind: 'paired', proposalId: 3 });
    expect(pairingFrom({ ok: false, cause: 'unprogrammable', reason: 'x' }, proposal, alternatives)).toEqual({ kind: 'choose', candidateIds: [10, 3] });
    // Every proposal tried unreadable: the least used, readable or not.
    expect(pairingFrom({ ok: false, cause: 'unreadable_operations', reason: 'x' }, proposal, [{ ...proposal, id: 12 }, ...alternatives])).toEqual({ kind: 'choose', candidateIds: [10, 12, 3] });
    // No readable operation moves the answer: the ones the rules cannot read are offered to the model, else none.
    expect(pairingFrom({ ok: false, cause: 'no_operation', reason: 'x' }, proposal, alternatives)).toEqual({ kind: 'choose', candidateIds: [10] });
    expect(pairingFrom({ ok: false, cause: 'no_operation', reason: 'x' }, readable(10), alternatives)).toMatchObject({ kind: 'none' });
    // A count of the chart's rows: only an unread operation that adds, removes or merges rows is offered.
    const setEachGroup: PoolProposal = { id: 13, text: 'Set the shortest bar of each group equal to the tallest bar of that group.', chartType: 'grouped_bar' };
    const merge: PoolProposal = { id: 14, text: 'Merge the two smallest slices into one slice whose share is their sum.', chartType: 'pie' };
    expect(pairingFrom({ ok: false, cause: 'no_operation', reason: 'x', countsRows: true }, setEachGroup, alternatives)).toMatchObject({ kind: 'none' });
    expect(pairingFrom({ ok: false, cause: 'no_operation', reason: 'x', countsRows: true }, setEachGroup, [merge])).toEqual({ kind: 'choose', candidateIds: [14] });
    expect(pairingFrom({ ok: false, cause: 'no_operation', reason: 'x' }, setEachGroup, [merge])).toEqual({ kind: 'choose', candidateIds: [13, 14] });
    expect(pairingFrom({ ok: false, cause: 'no_numbers', reason: 'x' }, proposal, alternatives)).toMatchObject({ kind: 'none' });
    // A wrong label, a value check any assumption answers, a legend: nothing a model could do, no request.
    for (const cause of ['label_disagrees', 'answer_given_away', 'about_the_drawing'] as const) {
      expect(pairingFrom({ ok: false, cause, reason: 'the label is wrong' }, proposal, alternatives)).toEqual({ kind: 'none', reason: 'no request was sent: the label is wrong' });
    }
  });

  it('lists first the proposals whose operation moved a program reproducing the label', () => {
    const candidates = candidatesFor(proposal, [readable(3), readable(4), readable(5), readable(6)], [5, 10]);
    expect(candidates.map((candidate) => candidate.id)).toEqual([5, 10, 3, 4, 6]);
  });
});
