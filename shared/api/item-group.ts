import { z } from 'zod';
import { DrawingStyleSchema } from '../chart-spec/drawing-style';
import { ChartTypeSchema } from '../domain/chart-types';
import { MAX_GROUP_CHARTS } from '../table/edit';
import { DataTableSchema } from '../table/model';

/**
 * The charts of an item over a chart group (MultiChartQA's groups, or a curator's), as every
 * page about the item shows them: each chart in group order, the one the assumption edits
 * marked. An item over one chart has no group (`null`).
 */
export const GroupChartViewSchema = z.object({
  /** 1-based: "the first chart", "the second chart", as the question and program name them. */
  position: z.number().int().min(1).max(MAX_GROUP_CHARTS),
  id: z.number().int(),
  imgname: z.string(),
  title: z.string().nullable(),
  chart_type: ChartTypeSchema,
  data_table: DataTableSchema,
  /** False: the chart shown is drawn from the table (and says so). */
  has_image: z.boolean(),
  drawing_style: DrawingStyleSchema.nullable(),
  table_confirmed: z.boolean(),
});
export type GroupChartView = z.infer<typeof GroupChartViewSchema>;

export const ItemGroupSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** The chart the assumption's edit changes (its `"chart"`); null when the edit is unreadable or absent. */
  edited_chart: z.number().int().min(1).max(MAX_GROUP_CHARTS).nullable(),
  charts: z.array(GroupChartViewSchema).min(2).max(MAX_GROUP_CHARTS),
});
export type ItemGroup = z.infer<typeof ItemGroupSchema>;
