import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ChartType } from '../../../shared/domain/chart-types';
import { inferChartType } from '../../../shared/domain/infer-chart-type';
import { HqaItemDraftSchema, type HqaItemDraft } from '../../../shared/generation/item-draft';
import { classifyAnswer, relaxedCorrect } from '../../../shared/table/answers';
import { applyEdit } from '../../../shared/table/edit';
import { PERCENT_SUM_TOLERANCE } from '../../../shared/table/lint';
import type { DataTable } from '../../../shared/table/model';
import { runProgram } from '../../../shared/table/program';
import { buildPieTable, buildSalesTable, buildTable } from '../../../shared/table/table-fixtures';
import { verifyItem } from '../../../shared/table/verify';
import { demoCharts } from '../../demo/demo-charts';
import { readTableCsv } from '../../import/csv-table';
import { offlineItem } from './offline-item';
import { offlineProposals } from './offline-proposals';
import { mulberry32 } from './rng';

interface Case {
  name: string;
  table: DataTable;
  chartType: ChartType;
  title: string;
  qa: { query: string; label: string };
}

const SAMPLE = resolve(process.cwd(), '../shared/data/chartqa-sample');

function sampleCases(): Case[] {
  const qas = ['test_human.json', 'test_augmented.json'].flatMap(
    (file) => JSON.parse(readFileSync(resolve(SAMPLE, file), 'utf8')) as { imgname: string; query: string; label: string }[],
  );
  return readdirSync(resolve(SAMPLE, 'tables')).flatMap((file) => {
    const stem = file.replace(/\.csv$/, '');
    const table = readTableCsv(`../shared/data/chartqa-sample/tables/${file}`);
    return qas
      .filter((qa) => qa.imgname === `${stem}.png`)
      .map((qa) => ({ name: `${stem}: ${qa.query}`, table, chartType: inferChartType(table), title: stem, qa: { query: qa.query, label: qa.label } }));
  });
}

function demoCases(): Case[] {
  return [...demoCharts({ charts: 90, seed: 21 })].map((chart) => ({
    name: chart.stem,
    table: chart.table,
    chartType: chart.type,
    title: chart.title,
    qa: chart.questions[0] ?? { query: 'What is shown?', label: '0' },
  }));
}

function fixtureCases(): Case[] {
  const qa = { query: 'What is the value in 2018?', label: '12.5' };
  return [
    { name: 'sales', table: buildSalesTable(), chartType: 'line', title: 'Sales channels', qa },
    { name: 'sales as stacked', table: buildSalesTable(), chartType: 'stacked_bar', title: 'Sales channels', qa },
    { name: 'pie', table: buildPieTable(), chartType: 'pie', title: 'Plans', qa: { query: 'What share said Yes?', label: '16' } },
  ];
}

/** Everything the brief promises of one draft, checked against the table engine. */
function checkDraft(c: Case, draft: HqaItemDraft): void {
  const where = `${c.name} / ${draft.question}`;
  expect(HqaItemDraftSchema.safeParse(draft).success, where).toBe(true);
  const verdict = verifyItem({ table: c.table, chartType: c.chartType, edit: draft.edit, program: draft.program, answer: draft.answer });
  expect(verdict.match, `${where}: ${JSON.stringify(verdict)}`).toBe(true);
  expect(verdict.lint.filter((finding) => finding.severity === 'error'), where).toEqual([]);
  expect(verdict.lint.map((finding) => finding.code), where).not.toContain('no_change');
  expect(draft.answer_type).toBe(classifyAnswer(draft.answer));
  expect(draft.question.startsWith(`${draft.assumption} `), where).toBe(true);
  expect(draft.assumption, where).toMatch(/^Suppose /);
  expect(draft.rationale, where).toMatch(/offline/i);
  expect(draft.rationale).toContain('offline-rules');
  // affects_answer is the same program on the original table, compared as the benchmark compares.
  const original = runProgram(c.table, draft.program);
  expect(original.ok, where).toBe(true);
  if (original.ok) expect(draft.affects_answer, where).toBe(!relaxedCorrect(draft.answer, original.answer));
  if (c.chartType === 'pie') {
    const applied = applyEdit(c.table, draft.edit);
    if (!applied.ok) throw new Error(where);
    const total = (table: DataTable) => table.rows.reduce((n, row) => n + (row.values[0] ?? 0), 0);
    if (Math.abs(total(c.table) - 100) <= PERCENT_SUM_TOLERANCE) expect(Math.abs(total(applied.table) - 100), where).toBeLessThan(0.01);
  }
}

describe('offlineItem over many tables', () => {
  const cases = [...sampleCases(), ...demoCases(), ...fixtureCases()];

  it('makes a verified, lint-clean item for nearly every table, proposal and QA, most of them changing the answer', () => {
    let made = 0;
    let tried = 0;
    let affected = 0;
    const failures: string[] = [];
    cases.forEach((c, i) => {
      const proposals = [
        ...offlineProposals({ chartType: c.chartType, examples: [], count: 3, seed: i }),
        'Imagine a slightly different chart.',
        'Move 5 percentage points from the largest slice to the smallest slice.',
        'Suppose the series grew by a constant amount every period after the first.',
      ];
      proposals.forEach((text, p) => {
        tried++;
        const result = offlineItem({ ...c, proposal: { id: p + 1, text }, seed: i * 31 + p });
        if (!result.ok) {
          failures.push(`${c.name} / ${text}: ${result.reason}`);
          return;
        }
        made++;
        if (result.draft.affects_answer) affected++;
        checkDraft(c, result.draft);
      });
    });
    expect(cases.length).toBeGreaterThan(150);
    expect(failures.length, failures.join('\n')).toBeLessThanOrEqual(tried * 0.02);
    expect(affected / made).toBeGreaterThan(0.7);
    // The controls exist too: some questions the assumption leaves as they were.
    expect(affected).toBeLessThan(made);
  });

  it('is deterministic for a seed and varies with the seed', () => {
    const c = fixtureCases()[0] as Case;
    const input = { ...c, proposal: { id: 3, text: 'Double the value of the largest bar.' }, seed: 9 };
    expect(offlineItem(input)).toEqual(offlineItem(input));
    const questions = new Set(
      Array.from({ length: 20 }, (_, seed) => {
        const result = offlineItem({ ...input, seed });
        return result.ok ? result.draft.question : '';
      }),
    );
    expect(questions.size).toBeGreaterThan(3);
  });
});

describe('offlineItem on odd tables', () => {
  it('never throws, and every item it makes still verifies (negatives, zeros, gaps, text cells, repeated labels)', () => {
    const rng = mulberry32(2024);
    const cell = () => {
      const r = rng();
      if (r < 0.1) return 'nan';
      if (r < 0.15) return 'n/a';
      if (r < 0.25) return '0';
      if (r < 0.4) return String(-Math.round(rng() * 50));
      if (r < 0.6) return `${Math.round(rng() * 1000) / 10}%`;
      return String(Math.round(rng() * 100000) / 100);
    };
    const types: ChartType[] = ['vertical_bar', 'horizontal_bar', 'grouped_bar', 'stacked_bar', 'line', 'pie', 'area', 'scatter', 'other'];
    let made = 0;
    for (let i = 0; i < 150; i++) {
      const rows = 1 + Math.floor(rng() * 6);
      const series = 1 + Math.floor(rng() * 3);
      const yearRows = rng() < 0.4;
      const header = ['Characteristic', ...Array.from({ length: series }, (_, s) => `S${s}`)];
      const body = Array.from({ length: rows }, (_, r) => [yearRows ? String(2010 + r) : `Row ${r % 4}`, ...Array.from({ length: series }, cell)]);
      const table = buildTable([header, ...body].map((line) => line.join(' | ')).join('\n'));
      const chartType = types[i % types.length] as ChartType;
      const c: Case = { name: `random ${i}`, table, chartType, title: '', qa: { query: 'What is the value of Row 1?', label: '3' } };
      const text = offlineProposals({ chartType: types[(i * 7) % types.length] as ChartType, examples: [], count: 1, seed: i })[0] ?? 'Double it.';
      const result = offlineItem({ ...c, proposal: { id: i, text }, seed: i });
      if (!result.ok) {
        expect(result.reason.length).toBeGreaterThan(10);
        continue;
      }
      made++;
      checkDraft(c, result.draft);
    }
    expect(made).toBeGreaterThan(75);
  });
});

describe('offlineItem follows the proposal and the factual QA', () => {
  const bars = buildTable(`
    Country | Revenue in million euros
    Germany | 42
    France  | 30
    Spain   | 18
    Italy   | 25
  `);
  const qa = { query: 'Which country has the highest revenue?', label: 'Germany' };
  const item = (text: string, table = bars, chartType: ChartType = 'vertical_bar', query = qa) => {
    const result = offlineItem({ table, chartType, title: 'Revenue by country', qa: query, proposal: { id: 1, text }, seed: 4 });
    if (!result.ok) throw new Error(result.reason);
    checkDraft({ name: text, table, chartType, title: '', qa: query }, result.draft);
    return result.draft;
  };

  it('turns the named operation into the matching edit', () => {
    expect(item('Double the value of the largest bar.').edit).toEqual([{ op: 'scale', row: 'Germany', series: 'Revenue in million euros', factor: 2 }]);
    expect(item('Remove the smallest bar from the chart.').edit).toEqual([{ op: 'remove_row', row: 'Spain' }]);
    expect(item('Swap the values of the largest and the smallest bars.').edit).toEqual([
      { op: 'swap', rows: ['Germany', 'Spain'], series: 'Revenue in million euros' },
    ]);
    expect(item('Set the smallest bar equal to the largest bar.').edit).toEqual([{ op: 'set', row: 'Spain', series: 'Revenue in million euros', value: 42 }]);
    expect(item('Increase every bar by 10 percent.').edit).toEqual([{ op: 'scale', series: 'Revenue in million euros', factor: 1.1 }]);
    const raised = item('Raise the smallest bar until it exceeds the largest bar.');
    expect(raised.edit[0]).toMatchObject({ op: 'add', row: 'Spain' });
    const added = item('Add a new bar slightly above the current maximum.');
    expect(added.edit[0]).toMatchObject({ op: 'add_row', row: 'Country X' });
    expect(added.assumption).toContain('"Country X"');
  });

  it('states the concrete change and names the engine in the rationale', () => {
    const draft = item('Double the value of the largest bar.');
    expect(draft.assumption).toBe('Suppose the value of Germany were doubled.');
    expect(draft.rationale).toMatch(/^Offline rule engine \(offline-rules\)/);
    expect(draft.rationale).toContain('Germany goes from 42 to 84');
  });

  it('prefers the row the factual question names', () => {
    const draft = item('Double one bar.', bars, 'vertical_bar', { query: 'What is the revenue of Italy?', label: '25' });
    expect(draft.edit[0]).toMatchObject({ op: 'scale', row: 'Italy' });
  });

  it('moves points between pie slices so the pie still sums to 100', () => {
    const draft = item('Move 5 percentage points from the largest slice to the smallest slice.', buildPieTable(), 'pie', { query: 'Which answer is most common?', label: "No, and I don't plan to" });
    expect(draft.edit).toEqual([
      { op: 'add', row: "No, and I don't plan to", series: 'Share of respondents', delta: -5 },
      { op: 'add', row: 'No, but I plan to soon', series: 'Share of respondents', delta: 5 },
    ]);
  });

  it('redraws a time series as a straight line for a constant-growth proposal', () => {
    const years = buildTable(`
      Year | Visitors
      2016 | 120
      2017 | 150
      2018 | 135
      2019 | 180
    `);
    const draft = item('Suppose the series grew by a constant amount every period after the first.', years, 'line', { query: 'How many visitors in 2019?', label: '180' });
    expect(draft.edit.every((op) => op.op === 'set')).toBe(true);
    const applied = applyEdit(years, draft.edit);
    if (!applied.ok) throw new Error('edit failed');
    const values = applied.table.rows.map((row) => row.values[0] ?? 0);
    const steps = values.slice(1).map((v, i) => v - (values[i] ?? 0));
    expect(new Set(steps).size).toBe(1);
  });

  it('swaps two series of a grouped bar for one category', () => {
    const grouped = buildTable(`
      Characteristic | Female | Male
      2019 | 5.9 | 5.8
      2018 | 5.83 | 5.73
      2017 | 5.77 | 5.67
    `);
    const draft = item('Swap the values of two series for one category.', grouped, 'grouped_bar', { query: 'What is the value of Female in 2018?', label: '5.83' });
    expect(draft.edit).toEqual([
      { op: 'set', row: '2018', series: 'Female', value: 5.73 },
      { op: 'set', row: '2018', series: 'Male', value: 5.83 },
    ]);
  });

  it('skips a table without numbers, saying why', () => {
    const words = buildTable(`
      Party | Leader
      Red   | Ann
      Blue  | Bob
    `);
    const result = offlineItem({ table: words, chartType: 'other', title: '', qa, proposal: { id: 1, text: 'Double the largest value.' }, seed: 1 });
    expect(result).toEqual({ ok: false, reason: expect.stringMatching(/no series with at least two numbers/) });
  });
});
