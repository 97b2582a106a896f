import { describe, expect, it } from 'vitest';
import { tableFromCells } from '../../shared/table/model';
import { parsedChart } from './parsed-chart-cache';

const sales = JSON.stringify(tableFromCells(['Year', 'Sales'], [['2020', '10'], ['2021', '12']]));
const edited = JSON.stringify(tableFromCells(['Year', 'Sales'], [['2020', '10'], ['2021', '15']]));

describe('parsed chart cache', () => {
  it('parses a chart once while its stored text is the same, and again once it changes', () => {
    const first = parsedChart(9001, sales, null);
    expect(first.table.rows.map((row) => row.label)).toEqual(['2020', '2021']);
    expect(parsedChart(9001, sales, null).table).toBe(first.table);

    const afterEdit = parsedChart(9001, edited, null);
    expect(afterEdit.table).not.toBe(first.table);
    expect(afterEdit.table).toEqual(JSON.parse(edited));
    // Another database's chart 9001 with other text: its own table, never the cached one.
    expect(parsedChart(9001, sales, null).table).toEqual(JSON.parse(sales));
  });

  it('shares what it returns frozen, so no caller changes another caller\'s table', () => {
    const { table } = parsedChart(9002, sales, null);
    expect(Object.isFrozen(table)).toBe(true);
    expect(Object.isFrozen(table.rows[0])).toBe(true);
  });

  it('names the chart whose stored table does not parse, each time it is asked', () => {
    expect(() => parsedChart(9003, '{"rows": 1}', null)).toThrow(/9003/);
    expect(() => parsedChart(9003, '{"rows": 1}', null)).toThrow(/9003/);
  });
});
