import { useMemo } from 'react';
import type { DrawingStyle } from '@shared/chart-spec/drawing-style';
import type { ChartType } from '@shared/domain/chart-types';
import type { DataTable } from '@shared/table/model';
import { chartFigure } from '../ui/vega/chart-figure';
import { VegaFigure } from '../ui/vega/vega-figure';

type ChartProps = { table: DataTable; chartType: ChartType; title: string | null; style: DrawingStyle | null; label: string; testId?: string };

/**
 * The edited table drawn as a chart of the same type, in the browser, in the original's
 * colours and series order where its annotation gives them. Key it by item: a new item is a
 * new chart. Vega writes SVG text nodes, so table text is never parsed as HTML.
 */
export function CounterfactualChart({ table, chartType, title, style, label, testId = 'counterfactual-chart' }: ChartProps) {
  const figure = useMemo(() => chartFigure(table, chartType, title, style), [table, chartType, title, style]);
  return <VegaFigure figure={figure} label={label} testId={testId} className="vega-chart" noun="chart" />;
}
