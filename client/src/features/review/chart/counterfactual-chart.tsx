import { useEffect, useRef, useState } from 'react';
import type { DrawingStyle } from '../../../../../shared/chart-spec/drawing-style';
import type { ChartType } from '../../../../../shared/domain/chart-types';
import type { DataTable } from '../../../../../shared/table/model';

type ChartProps = { table: DataTable; chartType: ChartType; title: string | null; style: DrawingStyle | null; label: string };

/**
 * The edited table drawn as a chart of the same type, in the browser, in the original's
 * colours and series order where its annotation gives them. Key it by item: a new item is a
 * new chart. Vega writes SVG text nodes, so table text is never parsed as HTML.
 */
export function VegaChart({ table, chartType, title, style, label }: ChartProps) {
  const container = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<'drawing' | 'drawn' | { error: string }>('drawing');

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    let cancelled = false;
    let finalize: (() => void) | null = null;
    import('./render-vega-chart')
      .then(({ renderChart }) => renderChart(element, table, chartType, title, style))
      .then(
        (view) => {
          if (cancelled) {
            view.finalize();
            return;
          }
          finalize = () => view.finalize();
          setState('drawn');
        },
        (error: unknown) => {
          if (!cancelled) setState({ error: error instanceof Error ? error.message : String(error) });
        },
      );
    return () => {
      cancelled = true;
      finalize?.();
      element.replaceChildren();
    };
  }, [table, chartType, title, style]);

  return (
    <>
      <div
        ref={container}
        className="vega-chart"
        role="img"
        aria-label={label}
        aria-busy={state === 'drawing'}
        data-testid="counterfactual-chart"
        data-state={typeof state === 'string' ? state : 'error'}
      />
      {state === 'drawing' && <p className="muted small chart-status">Drawing…</p>}
      {typeof state === 'object' && (
        <p className="error" role="alert">
          The chart could not be drawn: {state.error}
        </p>
      )}
    </>
  );
}
