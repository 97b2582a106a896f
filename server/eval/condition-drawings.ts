import type { Db } from '../../db/database';
import { conditionDrawingPlan, type ConditionDrawingPlan } from '../../shared/chart-spec/condition-drawing';
import { getChartForRender } from '../charts/chart-queries';
import { renderChartPngOffThread } from '../charts/render-pool';
import { itemDrawingSource } from './eval-queries';

/**
 * The drawings the `counterfactual_image` and `drawn_original` conditions send: an item's edited
 * table and its original table, drawn on the render threads with one set of options
 * (`conditionDrawingPlan`), so the two differ only in their data. Each is cached by chart (its
 * version), type and edit: items sharing a chart and an edit draw once, and a drawing made ahead
 * (the executor's prefetch) is the one sent.
 */
export type DrawnImage = 'drawn_original' | 'drawn_counterfactual';

const CACHE_SIZE = 512;
const cache = new Map<string, Buffer>();
const drawing = new Map<string, Promise<Buffer>>();

/** Why an item cannot be asked under a drawn condition; the message is the skipped result's reason. */
export class UndrawableItemError extends Error {}

/** What an item's drawings are made from, or why there are none (an item over a chart group, a chart with no table, …). */
export function itemDrawingPlan(db: Db, itemId: number): { plan: ConditionDrawingPlan; key: string } {
  const source = itemDrawingSource(db, itemId);
  if (!source) return { plan: { ok: false, reason: `item ${itemId} does not exist` }, key: '' };
  if (source.group_id !== null) return { plan: { ok: false, reason: 'an item over a chart group: its question relates several charts, which are not drawn' }, key: '' };
  if (!source.has_table) return { plan: { ok: false, reason: 'its chart has no data table to draw' }, key: '' };
  const chart = getChartForRender(db, source.chart_id);
  if (!chart) return { plan: { ok: false, reason: `chart ${source.chart_id} does not exist` }, key: '' };
  const plan = conditionDrawingPlan({ table: chart.table, chartType: chart.chart_type, title: chart.title, style: chart.style, edit: source.edit });
  return { plan, key: `${source.chart_id}:${chart.updated_at}:${chart.chart_type}:${JSON.stringify(source.edit)}` };
}

/** The item's drawing for a drawn condition (cached); throws UndrawableItemError with the reason it cannot be drawn. */
export async function conditionDrawing(db: Db, itemId: number, image: DrawnImage): Promise<Buffer> {
  const { plan, key } = itemDrawingPlan(db, itemId);
  if (!plan.ok) throw new UndrawableItemError(plan.reason);
  const cacheKey = `${image}:${key}`;
  const cached = cache.get(cacheKey);
  if (cached) return cached;
  let pending = drawing.get(cacheKey);
  if (!pending) {
    const table = image === 'drawn_original' ? plan.original : plan.edited;
    pending = renderChartPngOffThread(table, plan.chartType, plan.options).finally(() => drawing.delete(cacheKey));
    drawing.set(cacheKey, pending);
  }
  const png = await pending;
  cache.set(cacheKey, png);
  if (cache.size > CACHE_SIZE) {
    const oldest = cache.keys().next().value;
    if (oldest !== undefined) cache.delete(oldest);
  }
  return png;
}
