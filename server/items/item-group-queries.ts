import type { Db } from '../../db/database';
import { statement } from '../../db/statements';
import type { GroupChartView, ItemGroup } from '../../shared/api/item-group';
import { parseEdit } from '../../shared/table/edit';
import { editedChart } from '../../shared/table/group-edit';
import { loadChartGroup } from '../charts/chart-group-queries';
import { ChartWithoutTableError } from '../charts/chart-queries';

/** The SQL of the group view an item page shows for an item over a chart group. */

/**
 * The charts of the group, in position order, each parsed once (the parsed-chart cache) with
 * its drawing style, and the chart the item's edit changes: the group's members as
 * chart-group-queries reads them, asked only for an item over a group (the caller passes its
 * factual question's group id only when it has one).
 * Throws ChartWithoutTableError naming a member without a table (an item is made only over tables).
 */
export function itemGroupView(db: Db, groupId: number, edit: unknown): ItemGroup {
  const group = loadChartGroup(db, groupId);
  if (!group || group.members.length === 0) throw new Error(`chart group ${groupId}: not found or without charts`);
  const charts = group.members.map((member): GroupChartView => {
    if (member.table === null) throw new ChartWithoutTableError(member.id, `${member.split}/${member.imgname}`);
    return {
      position: member.position,
      id: member.id,
      imgname: member.imgname,
      title: member.title,
      chart_type: member.chart_type,
      data_table: member.table,
      has_image: member.has_image,
      drawing_style: member.drawing_style,
      table_confirmed: member.table_confirmed,
    };
  });
  return { id: group.id, name: group.name, edited_chart: editedChartOf(edit, charts.length), charts };
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
