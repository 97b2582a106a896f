import type { FigureSpec } from './figure-spec';

/**
 * Finished drawings of static charts (no hover), by what they draw: the spec, which holds the
 * table as edited, the chart type, style and size. The review screen draws the next item's
 * charts while the reviewer is still on the current one; when that item is shown, its charts
 * are copied from here in the same frame instead of being laid out again (tens of milliseconds
 * of Vega each, seconds on a loaded machine). A flip back to a chart seen before is instant too.
 *
 * What is kept is the SVG element Vega built, cloned: no markup is parsed, so table text stays
 * text. A few dozen drawings are a few megabytes at most; the oldest go first.
 */
const MAX_DRAWINGS = 48;

const drawings = new Map<string, SVGElement>();
/** The same figure object asks for its key on every render; a spec is serialised once. */
const keys = new WeakMap<FigureSpec, string>();

/** A figure's cache key, or null for figures that are not cached (interactive ones answer hover). */
export function drawingKey(figure: FigureSpec): string | null {
  if (figure.hover !== false) return null;
  let key = keys.get(figure);
  if (key === undefined) {
    key = JSON.stringify(figure.spec);
    keys.set(figure, key);
  }
  return key;
}

/** A copy of the drawing of `key`, ready to insert, or null when it was never drawn (or was dropped). */
export function cachedDrawing(key: string): SVGElement | null {
  const drawing = drawings.get(key);
  if (!drawing) return null;
  // Most recently used last, so the oldest is dropped first.
  drawings.delete(key);
  drawings.set(key, drawing);
  return drawing.cloneNode(true) as SVGElement;
}

/** Keeps a copy of `drawing` (the element Vega rendered) under `key`. */
export function keepDrawing(key: string, drawing: SVGElement): void {
  drawings.delete(key);
  drawings.set(key, drawing.cloneNode(true) as SVGElement);
  while (drawings.size > MAX_DRAWINGS) {
    const oldest = drawings.keys().next().value;
    if (oldest === undefined) break;
    drawings.delete(oldest);
  }
}

/** Whether `key` has a drawing (for tests and the prefetcher, which skips figures already drawn). */
export function hasDrawing(key: string): boolean {
  return drawings.has(key);
}
