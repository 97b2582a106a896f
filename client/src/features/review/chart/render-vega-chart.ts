import robotoBoldUrl from '@expo-google-fonts/roboto/700Bold/Roboto_700Bold.ttf?url';
import robotoRegularUrl from '@expo-google-fonts/roboto/400Regular/Roboto_400Regular.ttf?url';
import { parse, View } from 'vega';
import { compile } from 'vega-lite';
import { CHART_FONT } from '../../../../../shared/chart-spec/chart-style';
import type { DrawingStyle } from '../../../../../shared/chart-spec/drawing-style';
import { buildChartSpec } from '../../../../../shared/chart-spec/vega-lite-spec';
import type { ChartType } from '../../../../../shared/domain/chart-types';
import type { DataTable } from '../../../../../shared/table/model';
import { expressionInterpreter } from 'vega-interpreter';

/**
 * Draws a table in the browser with the spec the server renders chart PNGs from, so the
 * counterfactual chart looks like the original one would. Loaded on demand: Vega is large.
 */

let fontsLoaded: Promise<void> | null = null;

/** Vega measures labels as it lays out: the font must be there first, or the layout is off. */
function loadChartFont(): Promise<void> {
  fontsLoaded ??= Promise.all(
    [
      { url: robotoRegularUrl, weight: '400' },
      { url: robotoBoldUrl, weight: '700' },
    ].map(async ({ url, weight }) => {
      const face = new FontFace(CHART_FONT, `url(${url})`, { weight });
      await face.load();
      document.fonts.add(face);
    }),
  ).then(
    () => undefined,
    // Without Roboto the chart still draws, in a fallback font.
    () => undefined,
  );
  return fontsLoaded;
}

/** Renders into `container` as SVG; call `finalize()` on the result when the chart goes away. */
export async function renderChart(container: HTMLElement, table: DataTable, chartType: ChartType, title: string | null, style: DrawingStyle | null): Promise<View> {
  await loadChartFont();
  const { spec } = compile(buildChartSpec(table, chartType, { ...(title ? { title } : {}), style }));
  // `ast: true` + Vega's own CSP-safe interpreter: no `Function(...)`, which the Content-Security-Policy forbids.
  const view = new View(parse(spec, undefined, { ast: true }), {
    renderer: 'svg',
    container,
    hover: false,
    expr: expressionInterpreter,
  });
  await view.runAsync();
  return view;
}
