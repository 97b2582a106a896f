import type { ChartType } from '@shared/domain/chart-types';
import type { DataTable } from '@shared/table/model';
import { stackedTotalMismatches } from '@shared/table/printed-totals';

const ROWS_NAMED = 5;

const round = (value: number) => Math.round(value * 100) / 100;

/** A stacked table whose rows miss the totals the chart prints (or 100 % in a 100 % stacked chart): segments misread, swapped, or read as running totals. */
export function PrintedTotalsWarning({ table, chartType }: { table: DataTable; chartType: ChartType }) {
  const mismatches = stackedTotalMismatches(table, chartType);
  if (mismatches.length === 0) return null;
  const named = mismatches.slice(0, ROWS_NAMED).map((m) => `"${m.label}" adds up to ${round(m.sum)}, the chart says ${m.expected}`);
  return (
    <p className="notice notice-warning" role="status" data-testid="printed-totals-warning">
      Stacked rows do not reach the chart’s totals: {named.join('; ')}
      {mismatches.length > ROWS_NAMED ? ` and ${mismatches.length - ROWS_NAMED} more` : ''}. Segments may be misread, swapped or read as running totals; check them against the image.
    </p>
  );
}
