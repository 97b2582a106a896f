import type { Db } from '../../db/database';
import { tooLargeToDraw, tooLargeToDrawMessage } from '../../shared/chart-spec/drawing-limit';
import { DomainError } from '../domain-error';
import { chartHasTable, getChartForRender, getChartImage } from './chart-queries';
import { renderChartPngOffThread } from './render-pool';

/**
 * Rendering costs tens of milliseconds, and lists show many thumbnails: keep the last few
 * renders, keyed by what they were drawn from, so a changed type or table draws anew.
 */
const RENDER_CACHE_SIZE = 256;
const renderCache = new Map<string, Buffer>();
/** Renders under way, so two callers asking for one chart (a page and a prefetch) draw it once. */
const rendering = new Map<string, Promise<Buffer>>();

/** A chart with no image of its own whose table is past the drawing limit: refused, not drawn (the message names it and its size). */
export class ChartTooLargeError extends DomainError {
  constructor(
    readonly chartId: number,
    message: string,
  ) {
    super('too_large_to_draw', message);
  }
}

export interface ChartImage {
  png: Buffer;
  etag: string;
  rendered: boolean;
}

/**
 * The chart's own PNG, or one rendered from its data table by its type (in the annotation's
 * colours and series order, when it gives them). The original always wins: every place that
 * serves or exports a chart image (the image route, `hqa export --images`, evaluation runs)
 * comes here. Null: no such chart. Throws ChartTooLargeError for a table past the drawing limit.
 */
export async function chartImage(db: Db, id: number): Promise<ChartImage | null> {
  const original = getChartImage(db, id);
  if (original) return { png: original.png, etag: original.sha256, rendered: false };
  // A benchmark chart whose image is missing and that has no table: there is nothing to show.
  if (!chartHasTable(db, id)) return null;
  const chart = getChartForRender(db, id);
  if (!chart) return null;
  // Refused before a thread is asked: a table past the limit would hold it for seconds.
  const size = tooLargeToDraw(chart.table);
  if (size) throw new ChartTooLargeError(id, tooLargeToDrawMessage(`chart ${id} (${chart.name})`, size));
  const key = `${id}:${chart.chart_type}:${chart.updated_at}`;
  let png = renderCache.get(key);
  if (!png) {
    let pending = rendering.get(key);
    if (!pending) {
      const options = { ...(chart.title ? { title: chart.title } : {}), style: chart.style };
      pending = renderChartPngOffThread(chart.table, chart.chart_type, options).finally(() => rendering.delete(key));
      rendering.set(key, pending);
    }
    png = await pending;
    renderCache.set(key, png);
    if (renderCache.size > RENDER_CACHE_SIZE) {
      const oldest = renderCache.keys().next().value;
      if (oldest !== undefined) renderCache.delete(oldest);
    }
  }
  return { png, etag: `r-${Buffer.from(key).toString('base64url')}`, rendered: true };
}
