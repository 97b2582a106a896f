import type { Db } from '../../db/database';
import { loadChartGroup } from '../charts/chart-group-queries';
import { ChartWithoutTableError, getChartForRender } from '../charts/chart-queries';
import type { VerifySubject } from './item-service';

/**
 * What a stored item is verified over, read fresh: its chart, or its factual question's chart
 * group (every member with its table, in position order). Throws ChartWithoutTableError naming
 * a chart known only by its image: there is nothing to recompute on.
 */
export function storedItemSubject(db: Db, chartId: number, groupId: number | null): VerifySubject {
  if (groupId !== null) return groupSubject(db, groupId);
  const chart = getChartForRender(db, chartId);
  if (!chart) throw new Error(`chart ${chartId}: not found`);
  return { chart, group: null };
}

/** A group's charts as verification reads them; the subject's `chart` is the group's first, where its items are stored. */
export function groupSubject(db: Db, groupId: number): VerifySubject {
  const group = loadChartGroup(db, groupId);
  if (!group) throw new Error(`chart group ${groupId}: not found`);
  const charts = group.members.map((member) => {
    if (member.table === null) throw new ChartWithoutTableError(member.id, `${member.split}/${member.imgname}`);
    return { table: member.table, chart_type: member.chart_type, title: member.title };
  });
  const [first] = charts;
  if (!first) throw new Error(`chart group ${groupId} (${group.name}) has no charts`);
  return { chart: first, group: { charts } };
}
