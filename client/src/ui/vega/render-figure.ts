import { parse, View } from 'vega';
import { expressionInterpreter } from 'vega-interpreter';
import { compile } from 'vega-lite';
import { loadChartFont } from './chart-font';
import { drawingKey, hasDrawing, keepDrawing } from './drawing-cache';
import type { FigureSpec } from './figure-spec';

/**
 * Draws a figure (a Vega or Vega-Lite spec) as SVG; the one Vega renderer of the client.
 * Loaded on demand: Vega is large. `ast: true` + Vega's own CSP-safe interpreter: no
 * `Function(...)`, which the Content-Security-Policy forbids. A static figure's drawing is kept
 * (drawing-cache.ts), so the next time it is shown it is copied, not drawn again.
 */
export async function renderFigure(container: HTMLElement, figure: FigureSpec): Promise<View> {
  if (figure.chartFont) await loadChartFont();
  const spec = figure.kind === 'vega' ? figure.spec : compile(figure.spec).spec;
  const view = new View(parse(spec, undefined, { ast: true }), {
    renderer: 'svg',
    container,
    hover: figure.hover ?? true,
    expr: expressionInterpreter,
  });
  await view.runAsync();
  const key = drawingKey(figure);
  const drawing = container.querySelector('svg');
  if (key !== null && drawing) keepDrawing(key, drawing);
  return view;
}

/**
 * Draws a static figure off the page, for the drawing cache only: the review screen draws the
 * next item's charts this way before the reviewer gets to it. Figures already kept are skipped.
 */
export async function predrawFigure(figure: FigureSpec): Promise<void> {
  const key = drawingKey(figure);
  if (key === null || hasDrawing(key)) return;
  const view = await renderFigure(document.createElement('div'), figure);
  view.finalize();
}
