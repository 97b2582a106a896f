import type { ChartType } from '../domain/chart-types';
import { applyEdit, parseEdit } from '../table/edit';
import type { DataTable } from '../table/model';
import type { ChartSpecOptions } from './chart-context';
import { tooLargeToDraw, tooLargeToDrawMessage } from './drawing-limit';
import type { DrawingStyle } from './drawing-style';
import { comparedValueDomain } from './value-domain';

/**
 * The two drawings of the evaluation's drawn conditions: an item's original table and its
 * edited table, drawn by one renderer with one set of options — the chart's title and style and
 * one value axis covering both — so the only difference between them is the data. A model that
 * answers the counterfactual drawing differently from the drawn original reacts to the data,
 * not to a change of style or axis (`counterfactual_image` against `drawn_original`).
 */

export interface ConditionDrawingInput {
  table: DataTable;
  chartType: ChartType;
  title: string | null;
  style: DrawingStyle | null;
  /** The item's stored edit (JSON as stored); null when it has none. */
  edit: unknown;
}

export type ConditionDrawingPlan =
  | { ok: true; original: DataTable; edited: DataTable; chartType: ChartType; options: ChartSpecOptions }
  | { ok: false; reason: string };

/**
 * What both drawings are made from, or why the item's edit cannot be drawn (stated in the run's
 * skipped results): no machine-readable edit, one that no longer applies to the table, a chart
 * type with no drawing of its own (`other`, drawn as bars elsewhere, would compare a bar chart
 * with an image of something else), a table past the drawing limit.
 */
export function conditionDrawingPlan({ table, chartType, title, style, edit }: ConditionDrawingInput): ConditionDrawingPlan {
  if (chartType === 'other') return { ok: false, reason: 'chart type "other" has no drawing of its own' };
  if (edit === null || edit === undefined) return { ok: false, reason: 'the item has no machine-readable edit to draw' };
  const parsed = parseEdit(edit);
  if (!parsed.ok) return { ok: false, reason: `the item's edit cannot be read: ${parsed.error.message}` };
  const applied = applyEdit(table, parsed.edit);
  if (!applied.ok) return { ok: false, reason: `the item's edit does not apply to the chart's table: ${applied.error.message}` };
  for (const [what, drawn] of [['the original table', table], ['the edited table', applied.table]] as const) {
    const size = tooLargeToDraw(drawn);
    if (size) return { ok: false, reason: tooLargeToDrawMessage(what, size) };
  }
  const valueDomain = comparedValueDomain([table, applied.table], chartType, style);
  return { ok: true, original: table, edited: applied.table, chartType, options: { ...(title ? { title } : {}), style, valueDomain } };
}
