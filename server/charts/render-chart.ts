import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import sharp from 'sharp';
import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import type { ChartSpecOptions } from '../../shared/chart-spec/chart-context';
import { CHART_FONT, DEFAULT_CHART_WIDTH } from '../../shared/chart-spec/chart-style';
import { buildChartSpec } from '../../shared/chart-spec/vega-lite-spec';
import { tooLargeToDraw, tooLargeToDrawMessage } from '../../shared/chart-spec/drawing-limit';
import type { ChartType } from '../../shared/domain/chart-types';
import type { DataTable } from '../../shared/table/model';

const require = createRequire(import.meta.url);

/** Roboto ships with the app, so charts render the same on a machine with no system fonts. */
export const CHART_FONT_FILES = {
  regular: require.resolve('@expo-google-fonts/roboto/400Regular/Roboto_400Regular.ttf'),
  bold: require.resolve('@expo-google-fonts/roboto/700Bold/Roboto_700Bold.ttf'),
} as const;

// Skia finds a font by its family: both weights under the name the specs use. Its font manager
// is the process's, shared by the render threads, so a second thread finds the family there.
if (!GlobalFonts.has(CHART_FONT)) {
  for (const file of Object.values(CHART_FONT_FILES)) {
    if (GlobalFonts.registerFromPath(file, CHART_FONT) === null) throw new Error(`the chart font ${file} could not be loaded`);
  }
}

/** Draws `table` as an SVG document (white background, text in Roboto); refuses a table past the drawing limit. */
export async function renderChartSvg(table: DataTable, chartType: ChartType, options: ChartSpecOptions = {}): Promise<string> {
  const view = chartView(table, chartType, options);
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

/**
 * Draws `table` as a PNG `options.width` pixels wide (800 by default, like ChartQA's images):
 * Vega's canvas renderer draws the scene straight into a Skia canvas on this thread, and the
 * pixels are encoded on libuv's pool. Rasterising the SVG with resvg instead cost three
 * quarters of a drawing (its per-pixel work and its text shaping, ~25 ms of ~45 at 800 px);
 * Skia draws the same scene in ~3 ms.
 */
export async function renderChartPng(table: DataTable, chartType: ChartType, options: ChartSpecOptions = {}): Promise<Buffer> {
  const view = chartView(table, chartType, options);
  try {
    await view.runAsync();
    const { width, height } = viewSize(view);
    const scale = (options.width ?? DEFAULT_CHART_WIDTH) / width;
    const canvas = createCanvas(Math.round(width * scale), Math.round(height * scale));
    const context = canvas.getContext('2d');
    // Opaque white under everything, as ChartQA's images are, whatever the spec leaves transparent.
    context.fillStyle = 'white';
    context.fillRect(0, 0, canvas.width, canvas.height);
    await view.toCanvas(scale, { externalContext: context });
    // The surface's own pixels, RGBA (getImageData's copy cost a millisecond more): premultiplied,
    // which on this canvas, opaque everywhere under its white fill, is the same bytes.
    const pixels = canvas.data();
    // sharp's encoder: Skia's own took 13 ms a chart for the same bytes (±5%) sharp writes in 4.
    // Written as RGB: the image is opaque, and a fourth channel of 255s cost its encoder a third more.
    return await sharp(pixels, { raw: { width: canvas.width, height: canvas.height, channels: 4 } })
      .removeAlpha()
      .png({ compressionLevel: 6, adaptiveFiltering: false })
      .toBuffer();
  } finally {
    view.finalize();
  }
}

/** A fresh view of the table's chart: views hold dataflow state, so nothing is shared between requests. Refuses a table past the drawing limit. */
function chartView(table: DataTable, chartType: ChartType, options: ChartSpecOptions): vega.View {
  // Callers check first (chart-image.ts names the chart); this keeps any other caller from holding a thread for seconds.
  const size = tooLargeToDraw(table);
  if (size) throw new Error(tooLargeToDrawMessage(options.title ? `the chart "${options.title}"` : 'the chart', size));
  return new vega.View(vega.parse(compileChart(buildChartSpec(table, chartType, options))), { renderer: 'none' });
}

/**
 * The size of the view's drawing, padding included, after a run: what Vega gives its own
 * renderers. A canvas the renderer does not create itself (ours) must be made that size first,
 * and Vega keeps the figure in a field it does not export; the PNG tests pin its meaning.
 */
function viewSize(view: vega.View): { width: number; height: number } {
  const { _viewWidth: viewWidth, _viewHeight: viewHeight } = view as unknown as { _viewWidth: unknown; _viewHeight: unknown };
  const padding = view.padding();
  if (typeof viewWidth !== 'number' || typeof viewHeight !== 'number' || typeof padding !== 'object') throw new Error('vega no longer says the size of its view (_viewWidth/_viewHeight): renderChartPng needs a new way to size its canvas');
  const { left = 0, right = 0, top = 0, bottom = 0 } = padding;
  return { width: Math.max(1, viewWidth + left + right), height: Math.max(1, viewHeight + top + bottom) };
}

// --- Compiled specs, reused across data ---------------------------------------------------
// Vega-Lite's compile is an eighth of a drawing, and the evaluation's drawn conditions draw an
// item's original and edited tables with one set of options: two specs that differ only in their
// inline rows. Vega-Lite compiles inline rows into one Vega dataset without reading them, so a
// spec compiled once for a shape serves every table of that shape with the rows put back.

/** Compiled shapes kept: a run draws an item's two tables one after the other. */
const COMPILED_SHAPES = 32;
/** Per Vega-Lite spec without its rows: the compiled Vega spec (its rows emptied) and the dataset that takes them. */
const compiledShapes = new Map<string, { spec: vega.Spec; dataset: number }>();

/** `compile(spec).spec`, from the compiled shape when one was compiled before; only a spec whose rows are inline at the top reuses. */
export function compileChart(chart: TopLevelSpec): vega.Spec {
  const rows = chart.data && 'values' in chart.data && Array.isArray(chart.data.values) ? chart.data.values : null;
  if (rows === null) return compile(chart).spec;
  const key = JSON.stringify({ ...chart, data: null });
  const known = compiledShapes.get(key);
  if (known) {
    const spec = structuredClone(known.spec);
    const dataset = spec.data?.[known.dataset];
    if (dataset) Object.assign(dataset, { values: rows });
    return spec;
  }
  const { spec } = compile(chart);
  const withRows = (spec.data ?? []).flatMap((dataset, index) => ('values' in dataset ? [index] : []));
  const dataset = withRows.length === 1 ? spec.data?.[withRows[0] as number] : undefined;
  // Kept only when the rows went through untouched: then putting other rows back is compiling them.
  if (dataset && 'values' in dataset && JSON.stringify(dataset.values) === JSON.stringify(rows)) {
    const shape = structuredClone({ ...spec, data: spec.data?.map((entry) => (entry === dataset ? { ...entry, values: [] } : entry)) });
    compiledShapes.set(key, { spec: shape, dataset: withRows[0] as number });
    if (compiledShapes.size > COMPILED_SHAPES) compiledShapes.delete(compiledShapes.keys().next().value as string);
  }
  return spec;
}

// --- Text measurement -------------------------------------------------------------------
// Without node-canvas, vega guesses every character is 0.8 em wide, which truncates labels
// and spreads legends far wider than Roboto draws them. vega supports replacing its width
// function (vl-convert does the same); ours reads advance widths from the very TTFs Skia
// draws with, so the layout fits the pixels. Set once at load; the function is pure.

/** Advance widths in em for the Basic Multilingual Plane; 0 where the font has no glyph. */
type Advances = Float32Array;

/** The average advance of Roboto's lowercase letters, for characters the font lacks. */
const FALLBACK_ADVANCE_EM = 0.55;
const DEFAULT_FONT_SIZE = 11;
const BOLD_WEIGHT = 600;

const ADVANCES = {
  regular: readAdvances(CHART_FONT_FILES.regular),
  bold: readAdvances(CHART_FONT_FILES.bold),
};

/** The slice of a vega text scene item that decides its width. */
interface TextItem {
  fontSize?: number | string;
  fontWeight?: number | string;
  limit?: number;
}

interface VegaTextMetrics {
  width: (item: TextItem, text: unknown) => number;
}

// vega-typings do not declare textMetrics though vega exports it at runtime.
const { textMetrics } = vega as unknown as { textMetrics: VegaTextMetrics };
textMetrics.width = measureTextItem;

function measureTextItem(item: TextItem, text: unknown): number {
  const size = item.fontSize === undefined ? DEFAULT_FONT_SIZE : Number(item.fontSize) || 0;
  const line = text === null || text === undefined ? '' : String(text).trim();
  if (size <= 0 || line === '') return 0;
  const weight = item.fontWeight === 'bold' ? 700 : Number(item.fontWeight) || 400;
  const advances = weight >= BOLD_WEIGHT ? ADVANCES.bold : ADVANCES.regular;
  const width = textWidthEm(line, advances) * size;
  // vega calls this both for a label's bounds (where text over `limit` is drawn truncated to
  // at most `limit`) and from its truncation search (which only asks "is this under limit?").
  // Capping at `limit` answers both: bounds stay tight and the search sees the same verdicts.
  const limit = Number(item.limit) || 0;
  return limit > 0 && width > limit ? limit : width;
}

function textWidthEm(text: string, advances: Advances): number {
  let em = 0;
  for (let i = 0; i < text.length; i += 1) em += advances[text.charCodeAt(i)] || FALLBACK_ADVANCE_EM;
  return em;
}

/** Reads each BMP character's advance width from a TrueType font's cmap (format 4) and hmtx tables. */
function readAdvances(path: string): Advances {
  const font = readFileSync(path);
  const tables = new Map<string, number>();
  for (let i = 0, count = font.readUInt16BE(4); i < count; i += 1) {
    const record = 12 + 16 * i;
    tables.set(font.toString('latin1', record, record + 4), font.readUInt32BE(record + 8));
  }
  const table = (tag: string): number => {
    const offset = tables.get(tag);
    if (offset === undefined) throw new Error(`${path}: the font has no ${tag} table`);
    return offset;
  };
  const unitsPerEm = font.readUInt16BE(table('head') + 18);
  const metricCount = font.readUInt16BE(table('hhea') + 34);
  const hmtx = table('hmtx');
  const glyphAdvance = (glyph: number): number => font.readUInt16BE(hmtx + 4 * Math.min(glyph, metricCount - 1)) / unitsPerEm;

  const cmap = table('cmap');
  let subtable = -1;
  for (let i = 0, count = font.readUInt16BE(cmap + 2); i < count; i += 1) {
    const record = cmap + 4 + 8 * i;
    const platform = font.readUInt16BE(record);
    const encoding = font.readUInt16BE(record + 2);
    const offset = cmap + font.readUInt32BE(record + 4);
    const unicodeBmp = (platform === 3 && encoding === 1) || platform === 0;
    if (unicodeBmp && font.readUInt16BE(offset) === 4) subtable = offset;
  }
  if (subtable < 0) throw new Error(`${path}: the font has no Unicode BMP character map`);

  const advances = new Float32Array(0x10000);
  const segments = font.readUInt16BE(subtable + 6) / 2;
  const ends = subtable + 14;
  const starts = ends + 2 * segments + 2;
  const deltas = starts + 2 * segments;
  const rangeOffsets = deltas + 2 * segments;
  for (let s = 0; s < segments; s += 1) {
    const start = font.readUInt16BE(starts + 2 * s);
    const end = font.readUInt16BE(ends + 2 * s);
    const delta = font.readUInt16BE(deltas + 2 * s);
    const rangeOffset = font.readUInt16BE(rangeOffsets + 2 * s);
    for (let code = start; code <= end && code < 0xffff; code += 1) {
      let glyph: number;
      if (rangeOffset === 0) {
        glyph = (code + delta) & 0xffff;
      } else {
        const raw = font.readUInt16BE(rangeOffsets + 2 * s + rangeOffset + 2 * (code - start));
        glyph = raw === 0 ? 0 : (raw + delta) & 0xffff;
      }
      if (glyph !== 0) advances[code] = glyphAdvance(glyph);
    }
  }
  return advances;
}
