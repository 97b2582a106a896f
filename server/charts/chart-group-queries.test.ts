import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrate, openDatabase, type Db } from '../../db/database';
import { buildChart, buildChartGroup, buildQa } from '../../test/support/factories';
import { tableFromCells } from '../../shared/table/model';
import { ChartWithoutTableError, getQaWithChart } from './chart-queries';
import { loadChartGroup } from './chart-group-queries';

let db: Db;
beforeEach(() => {
  db = openDatabase(':memory:');
  migrate(db);
});
afterEach(() => db.close());

describe('chart groups as items use them', () => {
  it('loads a group with its charts in position order and their tables', () => {
    const second = buildChart(db, { title: 'Costs', chartType: 'line', table: tableFromCells(['Year', 'Costs'], [['2019', '4']]) });
    const first = buildChart(db, { title: 'Sales' });
    const groupId = buildChartGroup(db, { chartIds: [first, second], name: 'sales-and-costs' });
    const group = loadChartGroup(db, groupId);
    expect(group?.name).toBe('sales-and-costs');
    expect(group?.members.map((member) => [member.position, member.id, member.title, member.chart_type])).toEqual([
      [1, first, 'Sales', 'vertical_bar'],
      [2, second, 'Costs', 'line'],
    ]);
    expect(group?.members[1]?.table?.series).toEqual(['Costs']);
    expect(loadChartGroup(db, groupId + 1)).toBeNull();
  });

  it('gives a question over a group every chart with its table, and a one-chart question no group', () => {
    const a = buildChart(db);
    const b = buildChart(db, { table: tableFromCells(['Year', 'Costs'], [['2019', '4']]) });
    const groupId = buildChartGroup(db, { chartIds: [a, b] });
    const over = getQaWithChart(db, buildQa(db, { chartId: a, groupId }));
    expect(over?.group?.charts.map((chart) => chart.table.series)).toEqual([['Sales'], ['Costs']]);
    expect(getQaWithChart(db, buildQa(db, { chartId: a }))?.group).toBeNull();
  });

  it('names the member that has no table when a group question needs them all', () => {
    const a = buildChart(db);
    const b = buildChart(db, { imgname: 'no-table.png' });
    db.prepare('UPDATE charts SET data_table = NULL, table_source = NULL, table_confirmed = 0 WHERE id = ?').run(b);
    const qaId = buildQa(db, { chartId: a, groupId: buildChartGroup(db, { chartIds: [a, b] }) });
    expect(() => getQaWithChart(db, qaId)).toThrow(ChartWithoutTableError);
    expect(() => getQaWithChart(db, qaId)).toThrow(/no-table\.png/);
  });
});
