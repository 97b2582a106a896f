import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHART_TYPES, type ChartType } from '../../shared/domain/chart-types';
import { inferChartType } from '../../shared/domain/infer-chart-type';
import { tableFromCells, type DataTable } from '../../shared/table/model';
import { readTableCsv } from '../import/csv-table';
import type { QuestionContext } from './demo-question-context';
import { DEMO_QUESTION_KINDS, demoQuestion } from './demo-questions';
import { mulberry32 } from '../../shared/random';
import { generateDemoSplit, type DemoSplitResult } from './demo-split';

interface Entry {
  imgname: string;
  query: string;
  label: string;
}

interface Annotation {
  type: string;
  models: { name: string; x: string[]; y: (number | null)[] }[];
  general_figure_info: { title: { text: string }; x_axis: { label: { text: string } }; y_axis: { label: { text: string } } };
}

interface SplitOnDisk {
  result: DemoSplitResult;
  tables: Map<string, DataTable>;
  csvText: Map<string, string>;
  annotations: Map<string, Annotation>;
  human: Entry[];
  augmented: Entry[];
}

const scratch: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'demo-split-'));
  scratch.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

function readSplit(dir: string, result: DemoSplitResult, split = 'demo'): SplitOnDisk {
  const tables = new Map<string, DataTable>();
  const csvText = new Map<string, string>();
  for (const name of readdirSync(join(dir, 'tables'))) {
    const stem = name.replace(/\.csv$/, '');
    const path = join(dir, 'tables', name);
    tables.set(stem, readTableCsv(path));
    csvText.set(stem, readFileSync(path, 'utf8'));
  }
  const annotations = new Map<string, Annotation>();
  for (const name of readdirSync(join(dir, 'annotations'))) {
    annotations.set(name.replace(/\.json$/, ''), JSON.parse(readFileSync(join(dir, 'annotations', name), 'utf8')) as Annotation);
  }
  const questions = (source: string) => JSON.parse(readFileSync(join(dir, `${split}_${source}.json`), 'utf8')) as Entry[];
  return { result, tables, csvText, annotations, human: questions('human'), augmented: questions('augmented') };
}

/** Every file of a split, path → bytes, for byte-for-byte comparison. */
function filesOf(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    out.set(path.slice(dir.length), readFileSync(path));
  }
  return out;
}

// --- Independent re-derivation of a label from the query text and the table as read back ---

function rowOf(table: DataTable, label: string): number {
  const r = table.rows.findIndex((row) => row.label === label);
  if (r < 0) throw new Error(`no row "${label}"`);
  return r;
}
function seriesOf(table: DataTable, name: string): number {
  const s = table.series.indexOf(name);
  if (s < 0) throw new Error(`no series "${name}"`);
  return s;
}
/** The column a question names: the only series, or "value of <series>" when there are several. */
function columnOf(table: DataTable, phrase: string): number {
  if (table.series.length === 1) return 0;
  const match = /^value of (.+)$/.exec(phrase);
  if (!match?.[1]) throw new Error(`"${phrase}" does not name a series`);
  return seriesOf(table, match[1]);
}
function cell(table: DataTable, r: number, s: number): number {
  const value = table.rows[r]?.values[s];
  if (value === null || value === undefined) throw new Error(`asked about a missing cell (${r}, ${s})`);
  return value;
}
function column(table: DataTable, s: number): number[] {
  return table.rows.map((_, r) => cell(table, r, s));
}
function only<T>(items: T[]): T {
  if (items.length !== 1) throw new Error(`expected one extreme, found ${items.length}`);
  return items[0] as T;
}

type Expected = { kind: string; value: number | string };

/** What the label of a demo question must be, worked out from the query text alone. */
function expectedAnswer(query: string, table: DataTable): Expected {
  let m: RegExpExecArray | null;
  const g = (i: number) => m?.[i] ?? '';
  if ((m = /^What is the (difference|sum) between the (.+) (?:in|for) (.+) and (.+)\?$/.exec(query)) ||
      (m = /^What is the (sum) of the (.+) (?:in|for) (.+) and (.+)\?$/.exec(query))) {
    const s = columnOf(table, g(2));
    const [a, b] = [cell(table, rowOf(table, g(3)), s), cell(table, rowOf(table, g(4)), s)];
    return { kind: g(1), value: g(1) === 'sum' ? a + b : Math.abs(a - b) };
  }
  if ((m = /^What is the (difference) between (.+) and (.+) (?:in|for) (.+)\?$/.exec(query)) ||
      (m = /^What is the (sum) of (.+) and (.+) (?:in|for) (.+)\?$/.exec(query))) {
    const r = rowOf(table, g(4));
    const [a, b] = [cell(table, r, seriesOf(table, g(2))), cell(table, r, seriesOf(table, g(3)))];
    return { kind: g(1), value: g(1) === 'sum' ? a + b : Math.abs(a - b) };
  }
  if ((m = /^What is the average (.+) across all .+\?$/.exec(query))) {
    const values = column(table, columnOf(table, g(1)));
    return { kind: 'average', value: values.reduce((x, y) => x + y, 0) / values.length };
  }
  if ((m = /^In how many .+? was the (.+) more than (-?\d+(?:\.\d+)?)\?$/.exec(query))) {
    const threshold = Number(g(2));
    return { kind: 'count', value: column(table, columnOf(table, g(1))).filter((v) => v > threshold).length };
  }
  if ((m = /^Which .+? had the (highest|lowest) (.+)\?$/.exec(query))) {
    const values = column(table, columnOf(table, g(2)));
    const best = g(1) === 'highest' ? Math.max(...values) : Math.min(...values);
    return { kind: g(1) === 'highest' ? 'max' : 'min', value: only(table.rows.filter((_, r) => values[r] === best)).label };
  }
  if ((m = /^(?:In|For) (.+), which .+ had the (highest|lowest) value\?$/.exec(query))) {
    const r = rowOf(table, g(1));
    const values = table.series.map((_, s) => cell(table, r, s));
    const best = g(2) === 'highest' ? Math.max(...values) : Math.min(...values);
    return { kind: g(2) === 'highest' ? 'max' : 'min', value: only(table.series.filter((_, s) => values[s] === best)) };
  }
  if ((m = /^(?:In|For) (.+), is the value of (.+) (greater|less) than that of (.+)\?$/.exec(query))) {
    const r = rowOf(table, g(1));
    const [a, b] = [cell(table, r, seriesOf(table, g(2))), cell(table, r, seriesOf(table, g(4)))];
    return { kind: 'compare', value: (g(3) === 'greater' ? a > b : a < b) ? 'Yes' : 'No' };
  }
  if ((m = /^Is the (.+) (?:in|for) (.+) (greater|less) than (?:in|that for) (.+)\?$/.exec(query))) {
    const s = columnOf(table, g(1));
    const [a, b] = [cell(table, rowOf(table, g(2)), s), cell(table, rowOf(table, g(4)), s)];
    return { kind: 'compare', value: (g(3) === 'greater' ? a > b : a < b) ? 'Yes' : 'No' };
  }
  if ((m = /^What (?:was|is) the (.+) (?:in|for) (.+)\?$/.exec(query))) {
    return { kind: 'lookup', value: cell(table, rowOf(table, g(2)), columnOf(table, g(1))) };
  }
  throw new Error(`unrecognised question: ${query}`);
}

function expectLabel(label: string, expected: Expected): void {
  if (typeof expected.value === 'string') {
    expect(label).toBe(expected.value);
    return;
  }
  // ChartQA-style numeric labels: plain numbers, at most 2 decimals, rounded from the true value.
  expect(label).toMatch(/^-?\d+(\.\d{1,2})?$/);
  expect(Math.abs(Number(label) - expected.value)).toBeLessThanOrEqual(0.005 + 1e-9);
}

/** A chart's type as the importer will decide it: the annotation's, else inferred from the table. */
function typeOf(split: SplitOnDisk, stem: string): ChartType {
  const annotated = split.annotations.get(stem)?.type;
  if (annotated) return annotated as ChartType;
  const table = split.tables.get(stem);
  if (!table) throw new Error(`no table ${stem}`);
  return inferChartType(table);
}

const hundredths = (values: readonly (number | null)[]): number => values.reduce<number>((n, v) => n + Math.round((v ?? 0) * 100), 0);

describe('generateDemoSplit (60 charts, seed 1)', () => {
  let dir: string;
  let split: SplitOnDisk;
  beforeAll(() => {
    dir = tempDir();
    split = readSplit(dir, generateDemoSplit({ dir }));
  });

  it('writes a ChartQA-layout split with 2–4 questions per chart, split between human and augmented', () => {
    expect(split.result).toEqual({ charts: 60, qas: split.human.length + split.augmented.length, dir });
    expect(split.tables.size).toBe(60);
    expect(existsSync(join(dir, 'png'))).toBe(false);
    expect(split.human.length).toBeGreaterThan(0.35 * split.result.qas);
    expect(split.augmented.length).toBeGreaterThan(0.35 * split.result.qas);
    const perChart = new Map<string, number>();
    for (const entry of [...split.human, ...split.augmented]) {
      expect(Object.keys(entry)).toEqual(['imgname', 'query', 'label']);
      const stem = entry.imgname.replace(/\.png$/, '');
      expect(split.tables.has(stem), `${entry.imgname} has a table`).toBe(true);
      perChart.set(stem, (perChart.get(stem) ?? 0) + 1);
    }
    expect(perChart.size).toBe(60);
    for (const n of perChart.values()) expect(n).toBeGreaterThanOrEqual(2);
    for (const n of perChart.values()) expect(n).toBeLessThanOrEqual(4);
  });

  it('covers every chart type, single- and multi-series tables, and leaves some charts to type inference', () => {
    const stems = [...split.tables.keys()];
    expect(new Set(stems.map((stem) => typeOf(split, stem)))).toEqual(new Set(CHART_TYPES));
    const seriesCounts = [...split.tables.values()].map((t) => t.series.length);
    expect(seriesCounts.some((n) => n === 1)).toBe(true);
    expect(seriesCounts.some((n) => n > 1)).toBe(true);
    const unannotated = stems.filter((stem) => !split.annotations.has(stem));
    expect(unannotated.length).toBeGreaterThanOrEqual(3);
    expect(unannotated.length).toBeLessThan(30);
  });

  it('has missing cells written as nan and as -', () => {
    const raws = [...split.tables.values()].flatMap((t) => t.rows.flatMap((row) => row.raw));
    expect(raws).toContain('nan');
    expect(raws).toContain('-');
    const missing = [...split.tables.values()].flatMap((t) => t.rows.flatMap((row) => row.values.filter((v) => v === null)));
    expect(missing.length).toBe(raws.filter((raw) => raw === 'nan' || raw === '-').length);
  });

  it('writes CSVs with CRLF line endings, a Characteristic/Entity/… header and % on shares', () => {
    for (const [stem, text] of split.csvText) {
      expect(text.endsWith('\r\n'), stem).toBe(true);
      expect(/[^\r]\n/.test(text), `${stem} has a bare LF`).toBe(false);
      expect(['Characteristic', 'Entity', 'Country', 'Year', 'Month']).toContain(split.tables.get(stem)?.label_header);
    }
    const pies = [...split.tables.keys()].filter((stem) => typeOf(split, stem) === 'pie');
    expect(pies.length).toBeGreaterThan(0);
    for (const stem of pies) {
      const table = split.tables.get(stem);
      expect(table?.rows.every((row) => row.raw[0]?.endsWith('%'))).toBe(true);
    }
  });

  it('makes pie slices and 100%-stacked rows add up to exactly 100', () => {
    for (const [stem, table] of split.tables) {
      const type = typeOf(split, stem);
      if (type === 'pie') expect(hundredths(table.rows.map((row) => row.values[0] ?? null)), stem).toBe(10000);
      const percentStacked = type === 'stacked_bar' && table.rows.every((row) => row.raw.every((raw) => raw.endsWith('%')));
      if (percentStacked) for (const row of table.rows) expect(hundredths(row.values), `${stem} ${row.label}`).toBe(10000);
    }
  });

  it('uses years as the labels of line and area charts', () => {
    for (const [stem, table] of split.tables) {
      if (typeOf(split, stem) !== 'line' && typeOf(split, stem) !== 'area') continue;
      for (const row of table.rows) expect(row.label, stem).toMatch(/^(19|20)\d{2}\*?$/);
    }
  });

  it('writes annotations with type, title, axis labels and one model per series matching the table', () => {
    expect(split.annotations.size).toBeGreaterThan(30);
    for (const [stem, annotation] of split.annotations) {
      const table = split.tables.get(stem);
      if (!table) throw new Error(`annotation without a table: ${stem}`);
      expect(Object.keys(annotation)).toEqual(['models', 'type', 'general_figure_info']);
      expect(CHART_TYPES).toContain(annotation.type);
      expect(annotation.general_figure_info.title.text.length).toBeGreaterThan(5);
      expect(typeof annotation.general_figure_info.x_axis.label.text).toBe('string');
      expect(typeof annotation.general_figure_info.y_axis.label.text).toBe('string');
      expect(annotation.models.map((model) => model.name)).toEqual(table.series);
      annotation.models.forEach((model, s) => {
        expect(model.x).toEqual(table.rows.map((row) => row.label));
        expect(model.y).toEqual(table.rows.map((row) => row.values[s]));
      });
    }
  });

  it('gives every question a label that re-derives from the table, over every question kind', () => {
    const kinds = new Set<string>();
    for (const entry of [...split.human, ...split.augmented]) {
      const table = split.tables.get(entry.imgname.replace(/\.png$/, ''));
      if (!table) throw new Error(`no table for ${entry.imgname}`);
      let expected: Expected;
      try {
        expected = expectedAnswer(entry.query, table);
      } catch (error) {
        throw new Error(`${entry.imgname}: ${entry.query}: ${(error as Error).message}`);
      }
      kinds.add(expected.kind);
      expectLabel(entry.label, expected);
    }
    expect(kinds).toEqual(new Set(DEMO_QUESTION_KINDS));
  });

  it('is deterministic: the same seed writes the same bytes, another seed different ones', () => {
    const again = tempDir();
    generateDemoSplit({ dir: again });
    expect(filesOf(again)).toEqual(filesOf(dir));
    const other = tempDir();
    generateDemoSplit({ dir: other, seed: 2 });
    expect(readFileSync(join(other, 'demo_human.json'))).not.toEqual(readFileSync(join(dir, 'demo_human.json')));
  });
});

describe('demoQuestion', () => {
  const ctx: QuestionContext = {
    measure: 'revenue', rowNoun: 'year', rowNounPlural: 'years', seriesNoun: 'region',
    timeRows: true, additive: true, additiveAcrossRows: true, comparableSeries: true,
  };
  const gappy = tableFromCells(['Characteristic', 'Revenue'], [['2019', '10.5'], ['2020', '-'], ['2021', '30'], ['2022', '12.25']]);
  const grouped = tableFromCells(['Characteristic', 'Europe', 'Asia'], [['2020', '4', '7.5'], ['2021', '5', 'nan'], ['2022', '6', '9']]);

  it('never asks about a missing cell, and asks no aggregate over a column with a gap', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const rng = mulberry32(seed);
      for (const kind of DEMO_QUESTION_KINDS) {
        const question = demoQuestion(kind, gappy, ctx, rng);
        if (question) expectLabel(question.label, expectedAnswer(question.query, gappy));
      }
      expect(demoQuestion('average', gappy, ctx, rng)).toBeNull();
      expect(demoQuestion('count', gappy, ctx, rng)).toBeNull();
      expect(demoQuestion('lookup', gappy, ctx, rng)?.query).not.toContain('2020');
    }
  });

  it('words questions about several series by series name and answers them from the table', () => {
    const seen = new Set<string>();
    for (let seed = 1; seed <= 200; seed++) {
      for (const kind of DEMO_QUESTION_KINDS) {
        const question = demoQuestion(kind, grouped, ctx, mulberry32(seed));
        if (!question) continue;
        seen.add(question.kind);
        expectLabel(question.label, expectedAnswer(question.query, grouped));
      }
    }
    expect(seen).toEqual(new Set(DEMO_QUESTION_KINDS));
    expect(demoQuestion('lookup', grouped, ctx, mulberry32(3))?.query).toMatch(/^What was the value of (Europe|Asia) in 20\d\d\?$/);
  });

  it('does not add up values that are not additive', () => {
    for (let seed = 1; seed <= 50; seed++) {
      expect(demoQuestion('sum', grouped, { ...ctx, additive: false, additiveAcrossRows: false }, mulberry32(seed))).toBeNull();
    }
  });

  it('never adds up one series across periods unless it is an amount (no market share of 2013 plus 2017)', () => {
    for (let seed = 1; seed <= 50; seed++) {
      const question = demoQuestion('sum', grouped, { ...ctx, additiveAcrossRows: false }, mulberry32(seed));
      // A sum may still add two series of one period (parts of one whole), never two periods of one series.
      if (question) expect(question.query).toMatch(/^What is the sum of (Europe|Asia) and (Europe|Asia) in 20\d\d\?$/);
    }
  });
});

// How fast 20,000 charts are written is bench/demo-split.ts's to say (npm run bench:demo).
describe('generateDemoSplit at scale', () => {
  it('writes every chart of a large split as its own table, its questions in the two question files', () => {
    const dir = tempDir();
    const result = generateDemoSplit({ dir, charts: 1_000, seed: 7, split: 'bench' });
    expect(result.charts).toBe(1_000);
    expect(readdirSync(join(dir, 'tables'))).toHaveLength(1_000);
    const count = (source: string) => (JSON.parse(readFileSync(join(dir, `bench_${source}.json`), 'utf8')) as unknown[]).length;
    expect(count('human') + count('augmented')).toBe(result.qas);
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses nonsense options before writing anything', () => {
    const dir = tempDir();
    expect(() => generateDemoSplit({ dir, charts: 0 })).toThrow(RangeError);
    expect(() => generateDemoSplit({ dir, split: '../x' })).toThrow(RangeError);
    expect(readdirSync(dir)).toEqual([]);
  });
});
