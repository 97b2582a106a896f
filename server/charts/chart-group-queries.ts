import type { Db } from '../../db/database';
import { statement } from '../../db/statements';
import { ChartTypeSchema, type ChartType } from '../../shared/domain/chart-types';
import type { DataTable } from '../../shared/table/model';
import { parsedChart } from './parsed-chart-cache';

/** SQL of chart groups as items use them (the importer writes groups: server/import/benchmark-queries.ts). */

/** One chart of a group, in the group's order, with what generation, verification and review need. */
export interface GroupMember {
  /** 1-based: the order the group's questions address its charts in ("the second chart"). */
  position: number;
  id: number;
  split: string;
  imgname: string;
  title: string | null;
  chart_type: ChartType;
  /** Null for a chart known only by its image. */
  table: DataTable | null;
  table_confirmed: boolean;
  has_image: boolean;
}

export interface ChartGroup {
  id: number;
  split: string;
  name: string;
  members: GroupMember[];
}

interface MemberRow {
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

/** The group with its charts in position order, or null for an unknown id. */
export function loadChartGroup(db: Db, groupId: number): ChartGroup | null {
  const group = statement(db, 'SELECT id, split, name FROM chart_groups WHERE id = ?').get(groupId) as { id: number; split: string; name: string } | undefined;
  if (!group) return null;
  const rows = statement(db,
      `SELECT m.position, c.id, c.split, c.imgname, c.title, c.chart_type, c.data_table, c.annotation, c.table_confirmed,
         EXISTS (SELECT 1 FROM chart_images i WHERE i.chart_id = c.id) AS has_image
       FROM chart_group_members m JOIN charts c ON c.id = m.chart_id
       WHERE m.group_id = ? ORDER BY m.position`,
    )
    .all(groupId) as MemberRow[];
  return {
    ...group,
    members: rows.map((row) => ({
      position: row.position,
      id: row.id,
      split: row.split,
      imgname: row.imgname,
      title: row.title,
      chart_type: ChartTypeSchema.parse(row.chart_type),
      table: row.data_table === null ? null : parsedChart(row.id, row.data_table, row.annotation).table,
      table_confirmed: row.table_confirmed === 1,
      has_image: row.has_image === 1,
    })),
  };
}

/** The group a factual question spans, or null for a question over one chart. */
export function groupIdOfQa(db: Db, qaId: number): number | null {
  const row = statement(db, 'SELECT group_id FROM factual_qas WHERE id = ?').get(qaId) as { group_id: number | null } | undefined;
  return row?.group_id ?? null;
}
