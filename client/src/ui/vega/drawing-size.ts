import { useLayoutEffect, useState, type RefObject } from 'react';
import { DEFAULT_CHART_HEIGHT, DEFAULT_CHART_WIDTH } from '@shared/chart-spec/chart-style';

/**
 * The size to draw a chart at: the size it is shown at. A chart specified at ChartQA's 800×557
 * and shrunk into a narrow column shows its 11 px labels at 5 px; drawn at the size of its box
 * it shows them at their own size, and the spec leaves out the value labels that no longer fit.
 */

export type DrawingSize = { width: number; height: number };

/** The aspect of ChartQA's images, which the drawings keep beside them (for the box's CSS `aspect-ratio`). */
export const CHART_ASPECT_RATIO = `${DEFAULT_CHART_WIDTH} / ${DEFAULT_CHART_HEIGHT}`;
const DEFAULT_SIZE: DrawingSize = { width: DEFAULT_CHART_WIDTH, height: DEFAULT_CHART_HEIGHT };
/** Widths are rounded down to this step, so that a resize redraws the chart now and then, not at every pixel. */
const SIZE_STEP_PX = 20;
/** Narrower than this a chart has no room for its axes: it is drawn this wide and shown smaller. */
const MIN_DRAWN_WIDTH_PX = 240;
/** A resize redraws the chart once it has stopped for this long. */
const RESIZE_SETTLE_MS = 150;

/**
 * The drawing that fills a box of `boxWidth`×`boxHeight` CSS pixels at ChartQA's aspect
 * (the box's height may be capped below its width's share); null for a box with no width
 * (not laid out), which is drawn at the default size.
 */
export function fittedSize(boxWidth: number, boxHeight: number): DrawingSize | null {
  if (boxWidth <= 0) return null;
  const aspect = DEFAULT_CHART_HEIGHT / DEFAULT_CHART_WIDTH;
  const room = boxHeight > 0 ? Math.min(boxWidth, boxHeight / aspect) : boxWidth;
  const width = Math.max(MIN_DRAWN_WIDTH_PX, Math.floor(room / SIZE_STEP_PX) * SIZE_STEP_PX);
  return { width, height: Math.round(width * aspect) };
}

/**
 * Where a chart box sits, as far as its size goes: one item's charts, a chart group's strip, or
 * an enlarged view. The review screen draws the next item's charts at the size its kind of box
 * was last drawn at (a group's boxes are narrower than a single chart's).
 */
export type DrawingSlot = 'single' | 'group' | 'zoom';
const lastMeasured: Partial<Record<DrawingSlot, DrawingSize>> = {};

function slotOf(element: HTMLElement): DrawingSlot {
  if (element.closest('dialog')) return 'zoom';
  return element.closest('[data-group-id]') ? 'group' : 'single';
}

export function lastDrawingSize(slot: DrawingSlot): DrawingSize | null {
  return lastMeasured[slot] ?? null;
}

/**
 * The size to draw at for the box `box` refers to: measured before the first paint, then again
 * when the box has settled after a resize; null until measured.
 */
export function useDrawingSize(box: RefObject<HTMLElement | null>): DrawingSize | null {
  const [size, setSize] = useState<DrawingSize | null>(null);
  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return;
    const measure = () => {
      const fitted = fittedSize(element.clientWidth, element.clientHeight);
      if (fitted) lastMeasured[slotOf(element)] = fitted;
      const next = fitted ?? DEFAULT_SIZE;
      setSize((shown) => (shown?.width === next.width && shown.height === next.height ? shown : next));
    };
    measure();
    let settling: ReturnType<typeof setTimeout> | undefined;
    const observer = new ResizeObserver(() => {
      clearTimeout(settling);
      settling = setTimeout(measure, RESIZE_SETTLE_MS);
    });
    observer.observe(element);
    return () => {
      observer.disconnect();
      clearTimeout(settling);
    };
  }, [box]);
  return size;
}
