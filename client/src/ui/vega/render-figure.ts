import { parse, View } from 'vega';
import { expressionInterpreter } from 'vega-interpreter';
import { compile } from 'vega-lite';
import type { FigureSpec } from './figure-spec';

/**
 * Draws an analytics figure (a Vega or Vega-Lite spec) as SVG. Loaded on demand: Vega is large.
 * `ast: true` + Vega's own CSP-safe interpreter, as for the counterfactual chart: no
 * `Function(...)`, which the Content-Security-Policy forbids.
 */
export async function renderFigure(container: HTMLElement, figure: FigureSpec): Promise<View> {
  const spec = figure.kind === 'vega' ? figure.spec : compile(figure.spec).spec;
  const view = new View(parse(spec, undefined, { ast: true }), {
    renderer: 'svg',
    container,
    // Marks' tooltips become the hovered element's title.
    hover: true,
    expr: expressionInterpreter,
  });
  await view.runAsync();
  return view;
}
