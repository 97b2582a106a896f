import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import { cachedDrawing, drawingKey } from './drawing-cache';
import type { FigureSpec } from './figure-spec';

type VegaFigureProps = {
  /** Keep it stable (memoise it): a new spec is a new drawing. */
  figure: FigureSpec;
  /** What the figure shows, for assistive technology; give the numbers in a table nearby too. */
  label: string;
  testId?: string;
  /** The drawing's class: `vega-figure` for analytics figures, `vega-chart` for a chart beside its image. */
  className?: string;
  /** What the error line calls it. */
  noun?: 'figure' | 'chart';
};

/**
 * A Vega or Vega-Lite figure drawn in the browser as SVG; Vega is fetched the first time one is
 * shown. A static figure drawn before (or predrawn for the next review item) is copied from the
 * drawing cache before the first paint, so it never shows as "Drawing…".
 */
export function VegaFigure({ figure, label, testId, className = 'vega-figure', noun = 'figure' }: VegaFigureProps) {
  const container = useRef<HTMLDivElement>(null);
  // What became of the last figure drawn; a newer figure is 'drawing' until it is done.
  const [outcome, setOutcome] = useState<{ figure: FigureSpec; error: string | null } | null>(null);
  // A copy of the figure's earlier drawing, taken once per figure: it is shown drawn from the start.
  const cached = useMemo(() => {
    const key = drawingKey(figure);
    return key === null ? null : cachedDrawing(key);
  }, [figure]);
  const state = cached !== null ? 'drawn' : outcome?.figure !== figure ? 'drawing' : outcome.error === null ? 'drawn' : { error: outcome.error };

  // A layout effect: a cached drawing goes in before the browser paints the figure empty.
  useLayoutEffect(() => {
    const element = container.current;
    if (!element) return;
    if (cached) {
      element.replaceChildren(cached);
      return () => element.replaceChildren();
    }
    let cancelled = false;
    let finalize: (() => void) | null = null;
    import('./render-figure')
      .then(({ renderFigure }) => renderFigure(element, figure))
      .then(
        (view) => {
          if (cancelled) {
            view.finalize();
            return;
          }
          finalize = () => view.finalize();
          setOutcome({ figure, error: null });
        },
        (error: unknown) => {
          if (!cancelled) setOutcome({ figure, error: error instanceof Error ? error.message : String(error) });
        },
      );
    return () => {
      cancelled = true;
      finalize?.();
      element.replaceChildren();
    };
  }, [figure, cached]);

  return (
    <>
      <div
        ref={container}
        className={className}
        role="img"
        aria-label={label}
        aria-busy={state === 'drawing'}
        data-testid={testId}
        data-state={typeof state === 'string' ? state : 'error'}
      />
      {state === 'drawing' && <p className="muted small chart-status">Drawing…</p>}
      {typeof state === 'object' && (
        <p className="error" role="alert">
          The {noun} could not be drawn: {state.error}
        </p>
      )}
    </>
  );
}
