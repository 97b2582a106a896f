import { parse, View } from 'vega';
import { expressionInterpreter } from 'vega-interpreter';
import { compile } from 'vega-lite';
import { loadChartFont } from './chart-font';
import type { FigureSpec } from './figure-spec';

/**
 * Draws a figure (a Vega or Vega-Lite spec) as SVG; the one Vega renderer of the client.
 * Loaded on demand: Vega is large. `ast: true` + Vega's own CSP-safe interpreter: no
 * `Function(...)`, which the Content-Security-Policy forbids.
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
  return view;
}
