import { describe, expect, it } from 'vitest';
import { tableFromCells } from '../table/model';
import { buildChartSpec } from './vega-lite-spec';

/** A pie's value labels sit round its rim: drawn small, the rim is short and thin slices' labels collide. */

const SHARES = tableFromCells(
  ['Platform', 'Share'],
  [
    ['Mobile', '60%'],
    ['Desktop', '30%'],
    ['Tablet', '6%'],
    ['Console', '4%'],
  ],
);

/** The rows whose value label the spec leaves out. */
function unlabelledRows(spec: unknown): number[] {
  const found = /indexof\((\[[^\]]*\]), datum\.row\)/.exec(JSON.stringify(spec).replace(/\\"/g, '"'));
  if (!found?.[1]) throw new Error('no label test in the spec');
  return JSON.parse(found[1]) as number[];
}

describe('pie value labels', () => {
  it('label every slice of 3% or more at ChartQA’s size', () => {
    expect(unlabelledRows(buildChartSpec(SHARES, 'pie'))).toEqual([]);
  });
  it('leave out the thin slices’ labels when drawn small, where their rim is shorter than a label', () => {
    // 240×167 with a title: a pie about 70 px across.
    expect(unlabelledRows(buildChartSpec(SHARES, 'pie', { width: 240, height: 167, title: 'Sessions by platform' }))).toEqual([2, 3]);
    expect(unlabelledRows(buildChartSpec(SHARES, 'pie', { width: 360, height: 250, title: 'Sessions by platform' }))).toEqual([]);
  });
  it('cut long slice names in the legend to a share of a small drawing’s width', () => {
    expect(JSON.stringify(buildChartSpec(SHARES, 'pie', { width: 300, height: 209 }))).toContain('"labelLimit":90');
    expect(JSON.stringify(buildChartSpec(SHARES, 'pie'))).toContain('"labelLimit":180');
  });
});
