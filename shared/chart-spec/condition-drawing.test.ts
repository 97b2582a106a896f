import { describe, expect, it } from 'vitest';
import { buildTable, buildSalesTable } from '../../test/support/table-fixtures';
import { CHART_TYPES } from '../domain/chart-types';
import { conditionDrawingPlan } from './condition-drawing';
import { buildChartSpec } from './vega-lite-spec';

/** The spec with every inline data list taken out, and the lists themselves, in document order. */
function splitData(spec: unknown): { rest: unknown; values: unknown[] } {
  const values: unknown[] = [];
  const strip = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(strip);
    if (typeof node !== 'object' || node === null) return node;
    return Object.fromEntries(
      Object.entries(node).map(([key, value]) => {
        if (key === 'values' && Array.isArray(value)) {
          values.push(value);
          return [key, '<data>'];
        }
        return [key, strip(value)];
      }),
    );
  };
  return { rest: strip(spec), values };
}

const table = buildTable(`
  Country | 2019 | 2020
  France  | 12   | 14
  Spain   | 30   | 25
  Italy   | 21   | 19
`);

describe('conditionDrawingPlan', () => {
  // Every chart type that has a drawing of its own: the two specs are built by one builder with one options object.
  for (const chartType of CHART_TYPES.filter((type) => type !== 'other')) {
    it(`draws the original and the edited ${chartType} table with specs that differ only in their data values`, () => {
      const source = chartType === 'pie' ? buildTable('Answer | Share\nYes | 40\nNo | 60') : table;
      const edit = chartType === 'pie' ? [{ op: 'set', row: 'Yes', value: 70 }, { op: 'set', row: 'No', value: 30 }] : [{ op: 'scale', row: 'Spain', factor: 2 }];
      const plan = conditionDrawingPlan({ table: source, chartType, title: 'Share by country', style: null, edit });
      if (!plan.ok) throw new Error(plan.reason);
      const original = splitData(buildChartSpec(plan.original, plan.chartType, plan.options));
      const edited = splitData(buildChartSpec(plan.edited, plan.chartType, plan.options));
      expect(edited.rest).toEqual(original.rest);
      expect(edited.values).not.toEqual(original.values);
      expect(original.values.length).toBeGreaterThan(0);
    });
  }

  it('puts both drawings on one value axis that covers the edited values', () => {
    const plan = conditionDrawingPlan({ table, chartType: 'grouped_bar', title: null, style: null, edit: [{ op: 'scale', row: 'Spain', factor: 2 }] });
    if (!plan.ok) throw new Error(plan.reason);
    expect(plan.options.valueDomain?.value[1]).toBe(60);
    expect(plan.options).not.toHaveProperty('title');
  });

  it('states why an edit cannot be drawn', () => {
    const base = { table: buildSalesTable(), chartType: 'line' as const, title: null, style: null };
    expect(conditionDrawingPlan({ ...base, chartType: 'other', edit: [] })).toEqual({ ok: false, reason: 'chart type "other" has no drawing of its own' });
    expect(conditionDrawingPlan({ ...base, edit: null })).toEqual({ ok: false, reason: 'the item has no machine-readable edit to draw' });
    const missing = conditionDrawingPlan({ ...base, edit: [{ op: 'set', row: '1999', series: 'Online', value: 3 }] });
    expect(missing.ok ? null : missing.reason).toMatch(/^the item's edit does not apply to the chart's table: .*1999/);
    const bad = conditionDrawingPlan({ ...base, edit: [{ op: 'explode' }] });
    expect(bad.ok ? null : bad.reason).toMatch(/^the item's edit cannot be read/);
  });
});
