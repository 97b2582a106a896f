import { z } from 'zod';
import type { Converted } from '../generation/model-output';
import { ChartTypeSchema, type ChartType } from './chart-types';

/**
 * What a vision model fills when asked which of the workbench's chart types an image shows. The
 * hint fields come first, so a model writing the object in order looks at the bars' direction and
 * stacking before it names the type; the type must then agree with them (a `vertical_bar` whose
 * bars run sideways is a contradiction, sent back once as a repair turn). Strict-output
 * compatible: every field required, enums only.
 */
export const ChartTypeReplyWireSchema = z.object({
  orientation: z
    .enum(['vertical', 'horizontal', 'none'])
    .describe('Which way the bars run: vertical (they rise from the category axis), horizontal (they extend sideways from the category axis), none (no bars).'),
  stacking: z
    .enum(['none', 'stacked', 'percent'])
    .describe('Bars made of stacked segments: stacked (values add up to a total), percent (every bar is 100%), none (not stacked, or no bars).'),
  chart_type: ChartTypeSchema.describe('The chart type as the workbench names it.'),
});
export type ChartTypeReplyWire = z.infer<typeof ChartTypeReplyWireSchema>;

/** The schema name the model is told (and the repair turn names). */
export const CHART_TYPE_REPLY_SCHEMA_NAME = 'ChartTypeAnswer';

export interface ChartTypeReply {
  chartType: ChartType;
  /** The model's own words on the bars, kept with its answer: "horizontal, 100% stacked". */
  hint: string;
}

/** What each bar type says about its bars; other types (line, pie, …) say nothing about bars. */
const BAR_SHAPES: Partial<Record<ChartType, { orientation?: 'vertical' | 'horizontal'; stacked: boolean }>> = {
  vertical_bar: { orientation: 'vertical', stacked: false },
  horizontal_bar: { orientation: 'horizontal', stacked: false },
  // Several series side by side or stacked, whichever way the bars run.
  grouped_bar: { stacked: false },
  stacked_bar: { stacked: true },
};

function describeHint(wire: ChartTypeReplyWire): string {
  const parts = [wire.orientation === 'none' ? 'no bars' : `${wire.orientation} bars`];
  if (wire.stacking !== 'none') parts.push(wire.stacking === 'percent' ? '100% stacked' : 'stacked');
  return parts.join(', ');
}

/** The reply as a chart type, or the contradiction that makes it no answer, naming the fields. */
export function toChartTypeReply(wire: ChartTypeReplyWire): Converted<ChartTypeReply> {
  const shape = BAR_SHAPES[wire.chart_type];
  if (shape) {
    if (wire.orientation === 'none') return { ok: false, reason: `chart_type: "${wire.chart_type}" is a bar chart, but orientation says there are no bars` };
    if (shape.orientation && shape.orientation !== wire.orientation) {
      return { ok: false, reason: `chart_type: "${wire.chart_type}" has ${shape.orientation} bars, but orientation is "${wire.orientation}"` };
    }
    if (shape.stacked !== (wire.stacking !== 'none')) {
      return { ok: false, reason: `chart_type: "${wire.chart_type}" ${shape.stacked ? 'stacks its bars' : 'does not stack its bars'}, but stacking is "${wire.stacking}"` };
    }
  }
  return { ok: true, value: { chartType: wire.chart_type, hint: describeHint(wire) } };
}
