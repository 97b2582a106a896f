import type { Db } from '../../db/database';
import { statement } from '../../db/statements';
import type { GroupChartView, ItemGroup } from '../../shared/api/item-group';
import { ChartTypeSchema } from '../../shared/domain/chart-types';
import { parseEdit } from '../../shared/table/edit';
import { editedChart } from '../../shared/table/group-edit';
import { ChartWithoutTableError } from '../charts/chart-queries';
import { parsedChart } from '../charts/parsed-chart-cache';

/** The SQL of the group view an item page shows for an item over a chart group. */

interface GroupViewRow {
  group_id: number;
  group_name: string;
  position: number;
  id: number;
  split: string;
  imgname: string;
  title: string | null;
  chart_type: string;
  data_table: string | null;
  annotation: string | null;
  table_confirmed: number;
  has_image: number;
}

/**
 * The charts of the group, in position order, each parsed once (the parsed-chart cache) with
 * its drawing style, and the chart the item's edit changes: one query per group item, none for
 * an item over one chart (the caller passes its factual question's group id only when it has one).
 * Throws ChartWithoutTableError naming a member without a table (an item is made only over tables).
 */
export function itemGroupView(db: Db, groupId: number, edit: unknown): ItemGroup {
  const rows = statement(db,
      `SELECT g.id AS group_id, g.name AS group_name, m.position, c.id, c.split, c.imgname, c.title, c.chart_type, c.data_table, c.annotation,
         c.table_confirmed, EXISTS (SELECT 1 FROM chart_images ci WHERE ci.chart_id = c.id) AS has_image
       FROM chart_groups g JOIN chart_group_members m ON m.group_id = g.id JOIN charts c ON c.id = m.chart_id
       WHERE g.id = ? ORDER BY m.position`,
    )
    .all(groupId) as GroupViewRow[];
  const [first] = rows;
  if (!first) throw new Error(`chart group ${groupId}: not found or without charts`);
  const charts = rows.map((row): GroupChartView => {
    if (row.data_table === null) throw new ChartWithoutTableError(row.id, `${row.split}/${row.imgname}`);
    const { table, style } = parsedChart(row.id, row.data_table, row.annotation);
    return {
      position: row.position,
      id: row.id,
      imgname: row.imgname,
      title: row.title,
      chart_type: ChartTypeSchema.parse(row.chart_type),
      data_table: table,
      has_image: row.has_image === 1,
      drawing_style: style,
      table_confirmed: row.table_confirmed === 1,
    };
  });
  return { id: first.group_id, name: first.group_name, edited_chart: editedChartOf(edit, charts.length), charts };
}

/** The chart an item's stored edit changes; null without an edit or when it cannot be read. */
export function editedChartOf(edit: unknown, chartCount: number): number | null {
  if (edit === null || edit === undefined) return null;
  const parsed = parseEdit(edit);
  if (!parsed.ok) return null;
  const chart = editedChart(parsed.edit, chartCount);
  return chart.ok ? chart.chart : null;
}

/** The charts of the group an item's factual question spans, in position order; null for an item over one chart. */
export function itemGroupChartIds(db: Db, itemId: number): number[] | null {
  const rows = statement(db,
      `SELECT m.chart_id FROM hqa_items i JOIN factual_qas q ON q.id = i.qa_id JOIN chart_group_members m ON m.group_id = q.group_id
       WHERE i.id = ? ORDER BY m.position`,
    )
    .all(itemId) as { chart_id: number }[];
  return rows.length === 0 ? null : rows.map((row) => row.chart_id);
}

/**
 * Charts of accepted items' groups whose image a benchmark named but the import did not find
 * ("split/imgname"), a few for the message: evaluation sends every chart of a group item.
 */
export function imageMissingGroupChartsOfAccepted(db: Db, limit = 5): string[] {
  const rows = statement(db,
      `SELECT DISTINCT c.split, c.imgname FROM hqa_items i JOIN factual_qas q ON q.id = i.qa_id
         JOIN chart_group_members m ON m.group_id = q.group_id JOIN charts c ON c.id = m.chart_id
       WHERE i.status = 'accepted' AND c.image_ref IS NOT NULL AND NOT EXISTS (SELECT 1 FROM chart_images ci WHERE ci.chart_id = c.id)
       ORDER BY c.split, c.imgname LIMIT ?`,
    )
    .all(limit) as { split: string; imgname: string }[];
  return rows.map((row) => `${row.split}/${row.imgname}`);
}
