import { describe, expect, it } from 'vitest';
import { tableFromCells } from '../model';
import { runProgram } from './index';

const sales = tableFromCells(['Year', 'Sales'], [['2019', '10'], ['2020', '12']]);
const costs = tableFromCells(['Year', 'Costs', 'Tax'], [['2019', '4', '1'], ['2020', '7', '2']]);

describe('programs over a chart group', () => {
  it('reads a cell of a named chart with value(chart, row, series)', () => {
    expect(runProgram([sales, costs], 'value(1, "2020", "Sales") - value(2, "2020", "Costs")')).toMatchObject({ ok: true, value: 5 });
  });

  it('evaluates any expression on one chart with chart(n, …)', () => {
    expect(runProgram([sales, costs], 'chart(2, sum(series("Tax"))) + chart(1, max(series()))')).toMatchObject({ ok: true, value: 15 });
    expect(runProgram([sales, costs], 'if(chart(1, value("2019")) > chart(2, value("2019", "Costs")), "first", "second")')).toMatchObject({ ok: true, value: 'first' });
  });

  it('refuses a table function outside chart() in a group, naming the fix', () => {
    const result = runProgram([sales, costs], 'value("2019", "Sales")');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toMatch(/spans 2 charts: name the chart, as in chart\(1, …\)/);
  });

  it('names the charts there are when a program asks for another', () => {
    const result = runProgram([sales, costs], 'chart(3, sum(series()))');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatchObject({ message: 'there is no chart 3: the group has charts 1 to 2', position: 6 });
    const single = runProgram(sales, 'value(2, "2019", "Sales")');
    expect(single.ok).toBe(false);
    if (!single.ok) expect(single.error.message).toBe('there is no chart 2: the item has one chart');
  });

  it('keeps one-chart programs as they were, chart(1, …) included', () => {
    expect(runProgram(sales, 'value("2020")')).toMatchObject({ ok: true, value: 12 });
    expect(runProgram(sales, 'chart(1, value("2020")) + value(1, "2019", "Sales")')).toMatchObject({ ok: true, value: 22 });
  });

  it('refuses a chart that is not a whole positive number', () => {
    const result = runProgram([sales, costs], 'chart("two", 1)');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toMatch(/named by its position in the group/);
  });
});
