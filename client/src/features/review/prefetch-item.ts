import type { ReviewTask } from '@shared/api/review';
import { lastDrawingSize } from '../../ui/vega/drawing-size';
import { comparedFigures } from '../../views/compared-chart';
import { counterfactualOf } from '../../views/counterfactual';
import { originalImageUrl } from '../../views/item-charts';
import { editedPosition, groupCounterfactualOf, itemGroupOf } from '../../views/item-group-charts';

/**
 * The next review item, made ready while the reviewer is still on the current one, so the key
 * that moves on shows it whole in the next frame: its original images fetched and decoded (the
 * `<img>` of the item then comes from the page's memory cache) and its charts drawn into the
 * drawing cache. Only the item claimed behind the current one is prepared: at most one more
 * item's work at a time, on the browser's idle time.
 */

/** Images kept referenced until the item they were loaded for is shown, so they are not evicted first. */
const MAX_KEPT_IMAGES = 12;
const kept: HTMLImageElement[] = [];

function preloadImage(url: string): Promise<void> {
  const image = new Image();
  image.decoding = 'async';
  image.src = url;
  kept.push(image);
  if (kept.length > MAX_KEPT_IMAGES) kept.shift();
  // A failed load is the item's own page's to report, when it is shown.
  return image.decode().catch(() => undefined);
}

/** Every chart image the item shows: its one chart, or each chart of its group. */
export function imageUrlsOf(task: ReviewTask): string[] {
  const group = itemGroupOf(task, task.item);
  return group ? group.charts.map((chart) => originalImageUrl(chart)) : [originalImageUrl(task.chart)];
}

/**
 * Prepares `task` for showing: images first (the network is the slow part), then its drawings.
 * Errors are swallowed: preparing is an optimisation only.
 */
export async function prefetchItem(task: ReviewTask): Promise<void> {
  await Promise.all(imageUrlsOf(task).map(preloadImage));
  await predrawItemCharts(task).catch(() => undefined);
}

/**
 * The next item's compared drawings (the counterfactual and the original table drawn), made
 * into the drawing cache at the size the current item's charts were drawn at: the same figures,
 * so the same cache keys, as the review screen builds when the item is shown.
 */
export async function predrawItemCharts(task: ReviewTask): Promise<void> {
  const group = itemGroupOf(task, task.item);
  const size = lastDrawingSize(group ? 'group' : 'single');
  if (!size) return;
  const outcome = group ? groupCounterfactualOf(group, task.item.edit) : counterfactualOf(task.chart.data_table, task.item.edit);
  if (outcome.kind !== 'applied') return;
  const position = group ? editedPosition(group, outcome) : null;
  const chart = group ? group.charts.find((member) => member.position === position) : task.chart;
  if (!chart) return;
  const { predrawFigure } = await import('../../ui/vega/render-figure');
  for (const figure of comparedFigures(chart, outcome, size)) await predrawFigure(figure);
}
