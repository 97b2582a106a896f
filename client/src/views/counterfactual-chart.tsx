import { useMemo, useRef } from 'react';
import type { DrawingStyle } from '@shared/chart-spec/drawing-style';
import { tooLargeToDraw, tooLargeToDrawMessage } from '@shared/chart-spec/drawing-limit';
import type { ChartHighlight } from '@shared/chart-spec/highlight';
import type { ValueDomain } from '@shared/chart-spec/value-domain';
import type { ChartType } from '@shared/domain/chart-types';
import type { DataTable } from '@shared/table/model';
import { chartFigure } from '../ui/vega/chart-figure';
import { CHART_ASPECT_RATIO, useDrawingSize, type DrawingSize } from '../ui/vega/drawing-size';
import type { FigureSpec } from '../ui/vega/figure-spec';
import { VegaFigure } from '../ui/vega/vega-figure';

type ChartProps = {
  table: DataTable;
  chartType: ChartType;
  title: string | null;
  style: DrawingStyle | null;
  label: string;
  testId?: string;
  /** A value axis shared with the drawing it is compared with (keep it stable: memoise it). */
  valueDomain?: ValueDomain | null;
  /** Marks to outline (keep it stable: memoise it). */
  highlight?: ChartHighlight | null;
};

/** What a drawing of a table is made from, besides the table and its size. */
export type DrawnChartOptions = { chartType: ChartType; title: string | null; style: DrawingStyle | null; valueDomain: ValueDomain | null; highlight: ChartHighlight | null };

/**
 * The figure of a table drawn at `size`: the one place it is built, so a drawing made ahead
 * (the next review item's) has the very spec, and so the cache key, of the one shown later.
 */
export function drawnChartFigure(table: DataTable, { chartType, title, style, valueDomain, highlight }: DrawnChartOptions, size: DrawingSize): FigureSpec {
  return chartFigure(table, chartType, { ...(title ? { title } : {}), style, valueDomain, highlight, ...size });
}

/**
 * The edited table drawn as a chart of the same type, in the browser, in the original's
 * colours, series order and bar orientation where its annotation gives them, at the size it is
 * shown (so its text is at its own size). Key it by item: a new item is a new chart. Vega
 * writes SVG text nodes, so table text is never parsed as HTML.
 */
export function CounterfactualChart({ table, chartType, title, style, label, testId = 'counterfactual-chart', valueDomain = null, highlight = null }: ChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const size = useDrawingSize(box);
  const tooLarge = useMemo(() => tooLargeToDraw(table), [table]);
  const figure = useMemo(
    () => (size === null || tooLarge ? null : drawnChartFigure(table, { chartType, title, style, valueDomain, highlight }, size)),
    [table, chartType, title, style, valueDomain, highlight, size, tooLarge],
  );
  // Past the limit Vega would hold this tab for seconds for a drawing nobody could read.
  if (tooLarge) {
    return (
      <p className="notice notice-warning" role="note" data-testid={`${testId}-too-large`}>
        {tooLargeToDrawMessage('This chart', tooLarge)}.
      </p>
    );
  }
  return (
    <div ref={box} className="chart-fit" style={{ aspectRatio: CHART_ASPECT_RATIO }}>
      {figure && <VegaFigure figure={figure} label={label} testId={testId} className="vega-chart" noun="chart" />}
    </div>
  );
}
