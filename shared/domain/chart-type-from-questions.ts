import type { DataTable } from '../table/model';
import type { ChartType } from './chart-types';
import { inferBarType } from './infer-chart-type';
import { outsideTableLabels } from './question-words';

/**
 * A chart's factual questions as evidence of its type. ChartQA's questions were written
 * looking at the chart and often name its marks: "How many blue bars exceed 520000?", "Which
 * country represents in red line?", "What share does the largest slice hold?". The rule, for
 * charts whose type was only inferred from the table:
 *
 * - the marks named across all of the chart's questions (words inside table labels the
 *   question quotes do not count) are `bar` (bar, bars), `line` (line, lines) or `pie`
 *   (pie, slice, slices, donut, doughnut);
 * - exactly one kind named → that kind decides: `bar` keeps an inferred bar type, else takes
 *   the bar type the table fits (`inferBarType`); `line` keeps an inferred line or area, else
 *   `line`; `pie` gives `pie` when the table has one series (a pie draws one series; several
 *   would be several pies, which the workbench does not draw);
 * - no kind, or several (conflicting words) → the inference stands.
 */

export type MarkKind = 'bar' | 'line' | 'pie';

const MARK_WORDS: readonly [MarkKind, RegExp][] = [
  ['bar', /\bbars?\b/i],
  ['line', /\blines?\b/i],
  ['pie', /\b(?:pie|slices?|donut|doughnut)\b/i],
];

const BAR_TYPES: readonly ChartType[] = ['vertical_bar', 'horizontal_bar', 'grouped_bar', 'stacked_bar'];

function tableLabels(table: DataTable): string[] {
  return [...table.series, ...table.rows.map((row) => row.label)];
}

/** The kinds of mark a question names, outside the table's labels. */
export function marksNamedIn(question: string, table: DataTable): MarkKind[] {
  const text = outsideTableLabels(question, tableLabels(table));
  return MARK_WORDS.filter(([, pattern]) => pattern.test(text)).map(([kind]) => kind);
}

/** The chart type once the chart's questions are heard (see the rule above). */
export function typeFromQuestions(inferred: ChartType, table: DataTable, questions: readonly string[]): ChartType {
  const kinds = new Set(questions.flatMap((question) => marksNamedIn(question, table)));
  const [kind] = kinds;
  if (kinds.size !== 1 || kind === undefined) return inferred;
  switch (kind) {
    case 'bar':
      return BAR_TYPES.includes(inferred) ? inferred : inferBarType(table);
    case 'line':
      return inferred === 'line' || inferred === 'area' ? inferred : 'line';
    case 'pie':
      return table.series.length === 1 ? 'pie' : inferred;
  }
}
