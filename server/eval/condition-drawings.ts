import type { Db } from '../../db/database';
import { conditionDrawingPlan, type ConditionDrawingInput, type ConditionDrawingPlan } from '../../shared/chart-spec/condition-drawing';
import type { DataTable } from '../../shared/table/model';
import { getSharedChartForRender } from '../charts/chart-queries';
import { deepFreeze } from '../deep-freeze';
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

/**
 * Plans by the parsed table they were made from (which stands for the chart's stored table and
 * annotation: an edit of either parses anew) and by the rest of their input. A run asks an
 * item's plan at its snapshot and twice per drawing (ahead, then when asked): applying the edit
 * and fitting one value axis to both tables each time was a main-thread cost per question.
 */
const plans = new WeakMap<DataTable, Map<string, ConditionDrawingPlan>>();
const PLANS_PER_TABLE = 64;

function memoizedPlan(input: ConditionDrawingInput): ConditionDrawingPlan {
  let byInput = plans.get(input.table);
  if (byInput === undefined) {
    byInput = new Map();
    plans.set(input.table, byInput);
  }
  const key = JSON.stringify([input.chartType, input.title, input.edit]);
  const known = byInput.get(key);
  if (known !== undefined) return known;
  // Shared by every caller, as the parsed table is: frozen.
  const plan = deepFreeze(conditionDrawingPlan(input));
  if (byInput.size >= PLANS_PER_TABLE) byInput.delete(byInput.keys().next().value as string);
  byInput.set(key, plan);
  return plan;
}

/** What an item's drawings are made from, or why there are none (an item over a chart group, a chart with no table, …). */
export function itemDrawingPlan(db: Db, itemId: number): { plan: ConditionDrawingPlan; key: string } {
  const source = itemDrawingSource(db, itemId);
  if (!source) return { plan: { ok: false, reason: `item ${itemId} does not exist` }, key: '' };
  if (source.group_id !== null) return { plan: { ok: false, reason: 'an item over a chart group: its question relates several charts, which are not drawn' }, key: '' };
  if (!source.has_table) return { plan: { ok: false, reason: 'its chart has no data table to draw' }, key: '' };
  const chart = getSharedChartForRender(db, source.chart_id);
  if (!chart) return { plan: { ok: false, reason: `chart ${source.chart_id} does not exist` }, key: '' };
  const plan = memoizedPlan({ table: chart.table, chartType: chart.chart_type, title: chart.title, style: chart.style, edit: source.edit });
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
