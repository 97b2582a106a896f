import type { DataTable } from '../table/model';
import type { ChartType } from './chart-types';
import { inferBarType } from './infer-chart-type';
import { outsideTableLabels } from './question-words';

/**
 * A chart's factual questions as evidence of its type. ChartQA's questions were written
 * looking at the chart and often name its marks: "How many blue bars exceed 520000?", "Which
 * country represents in red line?", "Divide the second largest segment by the smallest". The
 * rule, for charts whose type was only inferred from the table (words inside table labels the
 * question quotes do not count):
 *
 * - the marks named across all of the chart's questions are `bar` (bar, bars), `line` (line,
 *   lines), `pie` (pie, slice, slices, donut, doughnut) or `segment` (segment, segments: a part
 *   of a whole, a pie's slice or a stacked bar's piece);
 * - `line` alone → `line` (an inferred `area` stays: a filled line);
 * - `pie`, alone or with `segment` → `pie` when the table has one series (a pie draws one
 *   series; several would be several pies, which the workbench does not draw);
 * - `segment` alone, or with `bar` → one series: `pie` (segment alone); several series:
 *   `stacked_bar`;
 * - `bar` alone → a bar type: the inferred one if it is a bar type, else the one the table fits
 *   (`inferBarType`). For one series the questions may also say which way the bars run: items
 *   counted "from the top", the "uppermost" or "bottommost" bar are bars stacked down the
 *   chart (`horizontal_bar`); the "leftmost" or "rightmost" bar, "from the left", "left to
 *   right" are bars side by side (`vertical_bar`);
 * - no kind, or kinds that contradict each other → the inference stands.
 *
 * The questions *decide* the type (`decided`) only when their words fix all of it: a line, a
 * pie, segments of several series, or one series of bars whose direction they name. Bars whose
 * direction or arrangement (grouped or stacked) only the table suggests are a kind settled and a
 * type guessed: drawn as bars, left unconfirmed for a vision model or a curator.
 */

export type MarkKind = 'bar' | 'line' | 'pie' | 'segment';

const MARK_WORDS: readonly [MarkKind, RegExp][] = [
  ['bar', /\bbars?\b/i],
  ['line', /\blines?\b/i],
  ['pie', /\b(?:pie|slices?|donut|doughnut)\b/i],
  ['segment', /\bsegments?\b/i],
];

export type BarDirection = 'vertical' | 'horizontal';

/** Words that place bars in a column (counted from the top) or in a row (counted from the left). */
const DIRECTION_WORDS: readonly [BarDirection, RegExp][] = [
  ['horizontal', /\b(?:uppermost|topmost|bottommost|lowermost)\b|\bfrom the (?:top|bottom)\b/i],
  ['vertical', /\b(?:leftmost|rightmost|left-most|right-most)\b|\bfrom (?:the )?(?:left|right)\b|\bleft to right\b|\bright to left\b/i],
];

const BAR_TYPES: readonly ChartType[] = ['vertical_bar', 'horizontal_bar', 'grouped_bar', 'stacked_bar'];

export interface QuestionsReading {
  chartType: ChartType;
  /** The questions' words fix the whole type (see the rule above): the type is confirmed by them. */
  decided: boolean;
}

function tableLabels(table: DataTable): string[] {
  return [...table.series, ...table.rows.map((row) => row.label)];
}

/** The kinds of mark a question names, outside the table's labels. */
export function marksNamedIn(question: string, table: DataTable): MarkKind[] {
  const text = outsideTableLabels(question, tableLabels(table));
  return MARK_WORDS.filter(([, pattern]) => pattern.test(text)).map(([kind]) => kind);
}

/** Which way the bars run, as a question's position words say it (outside the table's labels). */
export function barDirectionsNamedIn(question: string, table: DataTable): BarDirection[] {
  const text = outsideTableLabels(question, tableLabels(table));
  return DIRECTION_WORDS.filter(([, pattern]) => pattern.test(text)).map(([direction]) => direction);
}

function barsReading(inferred: ChartType, table: DataTable, questions: readonly string[]): QuestionsReading {
  const guessed = BAR_TYPES.includes(inferred) ? inferred : inferBarType(table);
  if (table.series.length !== 1) return { chartType: guessed, decided: false };
  const directions = new Set(questions.flatMap((question) => barDirectionsNamedIn(question, table)));
  const [direction] = directions;
  if (directions.size !== 1 || direction === undefined) return { chartType: guessed, decided: false };
  return { chartType: direction === 'vertical' ? 'vertical_bar' : 'horizontal_bar', decided: true };
}

/** The chart type once the chart's questions are heard, and whether they decided it (see the rule above). */
export function typeFromQuestions(inferred: ChartType, table: DataTable, questions: readonly string[]): QuestionsReading {
  const kinds = new Set(questions.flatMap((question) => marksNamedIn(question, table)));
  const oneSeries = table.series.length === 1;
  const undecided: QuestionsReading = { chartType: inferred, decided: false };
  const only = (...allowed: MarkKind[]) => kinds.size > 0 && [...kinds].every((kind) => allowed.includes(kind));

  if (only('line')) return { chartType: inferred === 'area' ? 'area' : 'line', decided: true };
  if (kinds.has('pie') && only('pie', 'segment')) return oneSeries ? { chartType: 'pie', decided: true } : undecided;
  if (kinds.has('segment') && only('segment', 'bar')) {
    if (!oneSeries) return { chartType: 'stacked_bar', decided: true };
    return kinds.has('bar') ? undecided : { chartType: 'pie', decided: true };
  }
  if (only('bar')) return barsReading(inferred, table, questions);
  return undecided;
}
