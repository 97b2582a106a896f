import { describe, expect, it } from 'vitest';
import { tableFromCells } from '../../shared/table/model';
import { unverifiableColours } from '../../shared/chart-spec/drawing-style';
import { cachedUnverifiableColours, parsedChart } from './parsed-chart-cache';

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

  it('remembers the colour check per parsed table and texts, as unverifiableColours answers it', () => {
    const colours = JSON.stringify(tableFromCells(['Year', 'Red team', 'Blue team'], [['2020', '10', '4'], ['2021', '12', '5']]));
    const { table, style } = parsedChart(9004, colours, null);
    const drawn = { has_image: false, style };
    const asked = ['What is the value of the red bar in 2021?', 'Suppose the green bar doubled. What is it?'];
    const first = cachedUnverifiableColours(asked, table, drawn);
    expect(first).toEqual(unverifiableColours(asked, table, drawn));
    expect(first.length).toBeGreaterThan(0);
    expect(cachedUnverifiableColours(asked, table, drawn)).toBe(first);
    // With the original image shown the colours can be checked: another answer, not the remembered one.
    expect(cachedUnverifiableColours(asked, table, { has_image: true, style })).toEqual([]);
    // Other texts, and the same texts over an edited table, are checked anew.
    expect(cachedUnverifiableColours(['What is the Red team value?'], table, drawn)).toEqual(unverifiableColours(['What is the Red team value?'], table, drawn));
    const afterEdit = parsedChart(9004, colours.replace('Blue team', 'Green team'), null);
    expect(cachedUnverifiableColours(asked, afterEdit.table, { has_image: false, style: afterEdit.style })).toEqual(
      unverifiableColours(asked, afterEdit.table, { has_image: false, style: afterEdit.style }),
    );
  });
});
