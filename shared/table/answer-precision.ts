import { roundHalfUp } from '../eval/decimal-round';
import { formatNumber } from './program/format';
import type { DataTable } from './model';

const decimalsOf = (text: string) => /^-?[\d,]*\.(\d+)/.exec(text.trim().replace(/[%$€£*\s]/g, ''))?.[1]?.length ?? 0;

/**
 * A computed number as ChartQA writes it: no more decimals than the chart's cells or the factual
 * label show, one at least (so an average of whole numbers keeps its .5): 2.112 on a chart of
 * 1.92s is 2.11, 15.62 on a chart of 14.2s is 15.6. Labels, Yes/No and whole numbers are kept.
 * Rounded half-up on the decimal, as a reader does: 14.6 × 0.75 = 10.95 is 11, where the
 * double's toFixed(1) printed 10.9.
 */
export function atChartPrecision(answer: string, tables: readonly DataTable[], label: string): string {
  if (!/^-?\d+\.\d+$/.test(answer.trim())) return answer;
  const shown = Math.max(1, decimalsOf(label), ...tables.flatMap((table) => table.rows.flatMap((row) => row.raw.map(decimalsOf))));
  return decimalsOf(answer) <= shown ? answer : formatNumber(roundHalfUp(answer.trim(), shown));
}
