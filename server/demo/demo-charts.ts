import { CHART_TYPES, type ChartType } from '../../shared/domain/chart-types';
import { inferChartType } from '../../shared/domain/infer-chart-type';
import type { QaSource } from '../../shared/domain/qa';
import { tableFromCells, type DataTable } from '../../shared/table/model';
import { axisLabels, labelHeaderOf, titleOf } from './demo-chart-labels';
import { layOut, orderRows } from './demo-layout';
import type { QuestionContext } from './demo-question-context';
import { demoQuestionsForTable, type DemoQuestion } from './demo-questions';
import { at, mulberry32, pick, randInt, shuffle, type Rng } from '../../shared/random';
import { THEMES_BY_TYPE } from './demo-themes';
import { decimalsOf, formatCell, makeValues, punchGaps } from './demo-values';

/** Builds demo charts: each chart's theme, table, annotation and questions come from its own seeded stream. */

/** The annotation file, in ChartQA's shape (`models`, `type`, `general_figure_info`) with our type names. */
export interface DemoAnnotation {
  /** One per series: `x` the category labels in table order, `y` the series' values (null where missing). */
  models: { name: string; x: string[]; y: (number | null)[] }[];
  type: ChartType;
  general_figure_info: {
    title: { text: string };
    x_axis: { label: { text: string } };
    y_axis: { label: { text: string } };
  };
}

export interface DemoChart {
  stem: string;
  type: ChartType;
  title: string;
  header: string[];
  body: string[][];
  /** The table as the importer will read it back. */
  table: DataTable;
  annotation: DemoAnnotation | null;
  questions: (DemoQuestion & { source: QaSource })[];
}

/** Roughly how often each type appears after the first charts, which cover every type once. */
const TYPE_WEIGHTS: Record<ChartType, number> = {
  vertical_bar: 20, horizontal_bar: 14, grouped_bar: 14, stacked_bar: 10, line: 16, pie: 10, area: 6, scatter: 5, other: 5,
};
const TYPE_WEIGHT_TOTAL = CHART_TYPES.reduce((n, type) => n + TYPE_WEIGHTS[type], 0);

function weightedType(rng: Rng): ChartType {
  let ticket = rng() * TYPE_WEIGHT_TOTAL;
  for (const type of CHART_TYPES) {
    ticket -= TYPE_WEIGHTS[type];
    if (ticket < 0) return type;
  }
  return 'vertical_bar';
}

/** Share of charts (where the importer's inference agrees with the type) written without an annotation. */
const UNANNOTATED_SHARE = 0.35;

/** Each chart gets its own stream, so chart i depends only on the seed, i and its type. */
function chartSeed(seed: number, index: number): number {
  let h = Math.imul(seed ^ 0x5bd1e995, 0x85ebca6b) ^ Math.imul(index + 1, 0xc2b2ae35);
  h ^= h >>> 13;
  h = Math.imul(h, 0x27d4eb2f);
  return (h ^ (h >>> 16)) >>> 0;
}

function buildChart(rng: Rng, type: ChartType, number: string): DemoChart {
  const theme = pick(rng, THEMES_BY_TYPE.get(type) ?? []);
  const shape = pick(rng, theme.layouts[type] ?? []);
  const layout = layOut(rng, theme, type, shape);
  // Named like ChartQA's Statista charts (two_col_*, multi_col_*), but never clashing with them.
  const stem = `demo_${layout.series.length > 1 ? 'multi_col' : 'two_col'}_${number}`;
  const values = makeValues(rng, theme, layout);
  const order = orderRows(rng, type, layout, values);
  // Statista marks preliminary figures with a footnote star, and ChartQA keeps it in the label.
  const lastYear = layout.time === 'years' && rng() < 0.1 ? String(Math.max(...layout.years)) : null;

  const labelHeader = labelHeaderOf(rng, theme, layout);
  const header = [labelHeader, ...layout.series];
  const body = order.map((i) => {
    const label = at(layout.rows, i);
    const cells = at(values, i).map((v, j) => formatCell(v, decimalsOf(theme, j), theme.unit));
    return [label === lastYear ? `${label}*` : label, ...cells];
  });
  if (layout.sum === null && type !== 'pie' && rng() < (layout.series.length > 1 ? 0.35 : 0.15)) {
    punchGaps(rng, body, labelHeader === 'Entity' ? 'nan' : '-');
  }
  const table = tableFromCells(header, body);

  const title = titleOf(rng, theme, layout);
  const [xLabel, yLabel] = axisLabels(type, theme, layout);
  const annotated = rng() >= UNANNOTATED_SHARE || inferChartType(table) !== type;
  const annotation: DemoAnnotation | null = annotated
    ? {
        models: table.series.map((name, j) => ({ name, x: table.rows.map((row) => row.label), y: table.rows.map((row) => row.values[j] ?? null) })),
        type,
        general_figure_info: { title: { text: title }, x_axis: { label: { text: xLabel } }, y_axis: { label: { text: yLabel } } },
      }
    : null;

  const rowPool = layout.rowPool;
  const ctx: QuestionContext = {
    measure: theme.measure,
    rowNoun: layout.time === 'years' ? 'year' : layout.time === 'months' ? 'month' : (rowPool?.noun ?? 'category'),
    rowNounPlural: layout.time === 'years' ? 'years' : layout.time === 'months' ? 'months' : (rowPool?.plural ?? 'categories'),
    seriesNoun: layout.seriesNoun,
    timeRows: layout.time !== null,
    additive: theme.kind !== 'level',
    additiveAcrossRows: theme.kind === 'amount' || (theme.kind === 'share' && layout.time === null),
    comparableSeries: shape !== 'entity-measure',
  };
  const questions = demoQuestionsForTable(table, ctx, rng, randInt(rng, 2, 4));
  // ChartQA-M (augmented) questions are mostly plain lookups, so the lookup goes there first.
  const augmented = questions.length % 2 === 0 || rng() < 0.5 ? Math.floor(questions.length / 2) : Math.ceil(questions.length / 2);
  return {
    stem, type, title, header, body, table, annotation,
    questions: questions.map((q, i) => ({ ...q, source: i < augmented ? 'augmented' : 'human' })),
  };
}

/**
 * The charts of a demo split, one at a time (a 20,000-chart split need not sit in memory).
 * The same seed always gives the same charts.
 */
export function* demoCharts({ charts, seed }: { charts: number; seed: number }): Generator<DemoChart> {
  const planRng = mulberry32(seed);
  // The first charts take every type once, so even a small split shows the whole vocabulary.
  const firstTypes = shuffle(planRng, CHART_TYPES);
  const width = Math.max(5, String(charts).length);
  for (let i = 0; i < charts; i++) {
    const type = firstTypes[i] ?? weightedType(planRng);
    yield buildChart(mulberry32(chartSeed(seed, i)), type, String(i + 1).padStart(width, '0'));
  }
}
