import { z } from 'zod';
import { colourWordsIn } from '../domain/colour-words';
import { BarOrientationSchema, StackingSchema, type BarOrientation, type DataTable } from '../table/model';
import { CSS_NAMED_COLOURS } from './css-colours';

/**
 * What a chart drawn from its table takes from the chart's annotation file: the original's
 * colours, series order and bar orientation. ChartQA annotations (PlotQA's format) say the
 * chart's `type` (`v_bar`, `h_bar`, `line`, `pie`) and list `models[]`: one per series
 * (`name`, `color`, `x`, `y`) or, in pies, one per slice (`text_label`, `value`, `color`).
 * Their colours are often names ("dark green", "Royal Blue") and sometimes unreadable
 * ("UNK"); only colours a browser can draw are kept.
 */

/** Said under every chart drawn from its table, never under an original image. */
export const DRAWN_CHART_NOTE = 'Drawn from the data table; colours and style may differ from the original.';

const HEX_COLOUR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/;

/** The annotation types that fix which way the original's bars run. */
const ANNOTATION_ORIENTATIONS: ReadonlyMap<string, BarOrientation> = new Map([
  ['v_bar', 'vertical'],
  ['vbar', 'vertical'],
  ['h_bar', 'horizontal'],
  ['hbar', 'horizontal'],
]);

export const DrawingStyleSchema = z.object({
  /** Series in the order the original lists them (legend, grouping, stacking); series it does not name follow in table order. */
  series_order: z.array(z.string()),
  /** A colour (`#rrggbb`) per series name, where the annotation gives one. */
  series_colours: z.record(z.string(), z.string().regex(HEX_COLOUR)),
  /** A colour per row label: pie slices, or the bars of one series coloured one by one. */
  row_colours: z.record(z.string(), z.string().regex(HEX_COLOUR)),
  /**
   * Which way the original's bars run, where the annotation says: grouped and stacked bars are
   * drawn so. Optional: styles written before it was read still parse.
   */
  orientation: BarOrientationSchema.optional(),
  /** Whether the original stacks its series, and to 100 % (an extraction's reading): stacked bars and areas are drawn so. */
  stacking: StackingSchema.optional(),
  /** A unit per series name where the table keeps one apart from the name: the legend's tooltip says it. */
  series_units: z.record(z.string(), z.string()).optional(),
});
export type DrawingStyle = z.infer<typeof DrawingStyleSchema>;

/** The parts of an annotation model this reads; anything else in the file is ignored. */
const AnnotationModelSchema = z.looseObject({
  name: z.unknown().optional(),
  text_label: z.unknown().optional(),
  color: z.unknown().optional(),
  colors: z.unknown().optional(),
  x: z.unknown().optional(),
});
const AnnotationSchema = z.looseObject({ type: z.unknown().optional(), models: z.array(z.unknown()).optional() });

/** `#rrggbb` for a CSS hex colour or colour name ("dark green" and "DarkGreen" both name `darkgreen`); null otherwise. */
export function cssColour(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const text = raw.trim().toLowerCase();
  if (HEX_COLOUR.test(text)) return text.length === 4 ? `#${[...text.slice(1)].map((c) => c + c).join('')}` : text;
  return CSS_NAMED_COLOURS[text.replace(/[\s_-]+/g, '')] ?? null;
}

/** Names compare as people write them: case, spacing and footnote stars aside. */
function nameKey(name: string): string {
  return name.replace(/\*+$/, '').replace(/\s+/g, ' ').trim().toLowerCase();
}

function textOf(value: unknown): string | null {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : null;
}

/** The bar orientation an annotation's `type` names (`v_bar`, `h_bar`), or undefined. */
function orientationOf(type: unknown): BarOrientation | undefined {
  return typeof type === 'string' ? ANNOTATION_ORIENTATIONS.get(type.trim().toLowerCase()) : undefined;
}

/**
 * The drawing style an annotation gives `table`, or null when it gives no colours, no series
 * order that differs from the table's and no bar orientation. `annotation` is the parsed
 * file (untrusted).
 */
export function drawingStyleFromAnnotation(annotation: unknown, table: DataTable): DrawingStyle | null {
  const parsed = AnnotationSchema.safeParse(annotation);
  if (!parsed.success) return null;
  const orientation = orientationOf(parsed.data.type);
  const seriesByKey = new Map(table.series.map((name) => [nameKey(name), name]));
  const rowsByKey = new Map(table.rows.map((row) => [nameKey(row.label), row.label]));
  const order: string[] = [];
  const seriesColours: Record<string, string> = {};
  const rowColours: Record<string, string> = {};
  const models = (parsed.data.models ?? []).flatMap((model) => {
    const m = AnnotationModelSchema.safeParse(model);
    return m.success ? [m.data] : [];
  });
  for (const model of models) {
    const name = textOf(model.name) ?? '';
    // A single-series chart's one model is that series, whatever it is called.
    const series = seriesByKey.get(nameKey(name)) ?? (table.series.length === 1 && models.length === 1 ? table.series[0] : undefined);
    const colour = cssColour(model.color);
    if (series !== undefined) {
      if (!order.includes(series)) order.push(series);
      if (colour) seriesColours[series] = colour;
      Object.assign(rowColours, pointColours(model, rowsByKey));
      continue;
    }
    // Otherwise the model is one slice or bar, named by its label.
    const row = rowsByKey.get(nameKey(textOf(model.text_label) ?? name));
    if (row !== undefined && colour) rowColours[row] = colour;
  }
  const reordered = order.length > 0 && order.some((name, i) => table.series[i] !== name);
  if (!reordered && orientation === undefined && Object.keys(seriesColours).length === 0 && Object.keys(rowColours).length === 0) return null;
  return { series_order: order, series_colours: seriesColours, row_colours: rowColours, ...(orientation ? { orientation } : {}) };
}

/**
 * `style` (an annotation's, or none) with what the table's extraction read of the original:
 * its bars' orientation and stacking where the annotation says nothing of them, and the series'
 * units. Null when there is nothing to draw differently.
 */
export function withTableReading(style: DrawingStyle | null, table: DataTable): DrawingStyle | null {
  const units = Object.fromEntries(table.series.flatMap((name, i) => {
    const unit = table.units?.[i]?.trim();
    return unit ? [[name, unit]] : [];
  }));
  const hasUnits = Object.keys(units).length > 0;
  if (!table.drawn && !hasUnits) return style;
  const base: DrawingStyle = style ?? { series_order: [], series_colours: {}, row_colours: {} };
  return {
    ...base,
    ...(table.drawn?.orientation && !base.orientation ? { orientation: table.drawn.orientation } : {}),
    ...(table.drawn?.stacking && !base.stacking ? { stacking: table.drawn.stacking } : {}),
    ...(hasUnits ? { series_units: units } : {}),
  };
}

/** Colours given point by point (`colors` beside `x`), as bars coloured one by one are annotated. */
function pointColours(model: z.infer<typeof AnnotationModelSchema>, rowsByKey: Map<string, string>): Record<string, string> {
  const colours: Record<string, string> = {};
  if (!Array.isArray(model.colors) || !Array.isArray(model.x)) return colours;
  const given: unknown[] = model.colors;
  const labels: unknown[] = model.x;
  labels.forEach((label, i) => {
    const row = rowsByKey.get(nameKey(textOf(label) ?? ''));
    const colour = cssColour(given[i]);
    if (row !== undefined && colour) colours[row] = colour;
  });
  return colours;
}

/** Whether a drawing in this style shows the original's colours at all. */
export function hasOriginalColours(style: DrawingStyle | null): boolean {
  return style !== null && (Object.keys(style.series_colours).length > 0 || Object.keys(style.row_colours).length > 0);
}

/**
 * The colour words of `questions` that a reviewer cannot check on the chart they see: the
 * chart has no original image and its annotation gives no colours, so it is drawn in the
 * palette's. Empty when the colours shown are the original's.
 */
export function unverifiableColours(questions: readonly string[], table: DataTable, chart: { has_image: boolean; style: DrawingStyle | null }): string[] {
  if (chart.has_image || hasOriginalColours(chart.style)) return [];
  const labels = [...table.series, ...table.rows.map((row) => row.label)];
  return [...new Set(questions.flatMap((question) => colourWordsIn(question, labels)))];
}
