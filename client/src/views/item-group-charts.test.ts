import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ItemGroupSchema, type ItemGroup } from '@shared/api/item-group';
import { buildTable } from '../../../test/support/table-fixtures';
import { zoomTarget } from './group-chart-zoom';
import { editedChartName, groupCounterfactualOf, ItemGroupCharts, itemGroupOf } from './item-group-charts';

function buildGroup(): ItemGroup {
  const chart = (position: number, title: string, table: string, confirmed: boolean) => ({
    position,
    id: 10 + position,
    imgname: `chart_${position}.png`,
    title,
    chart_type: 'vertical_bar',
    data_table: buildTable(table),
    has_image: true,
    drawing_style: null,
    table_confirmed: confirmed,
  });
  return ItemGroupSchema.parse({
    id: 4,
    name: 'Cases and deaths',
    edited_chart: 2,
    charts: [chart(1, 'Cases', 'Year | Africa\n2019 | 10\n2020 | 12', true), chart(2, 'Deaths', 'Year | Africa\n2019 | 3\n2020 | 4', false)],
  });
}

const EDIT = [{ chart: 2, op: 'set', row: '2020', series: 'Africa', value: 9 }];

/** The markup of one chart of the strip: from its section to the next one. */
function section(markup: string, position: number): string {
  const start = markup.indexOf(`data-testid="group-chart-${position}"`);
  const next = markup.slice(start + 1).search(/data-testid="group-chart-\d"/);
  return markup.slice(start, next === -1 ? undefined : start + 1 + next);
}

describe('the charts of a multi-chart item', () => {
  it('shows every chart in order, the edited one beside its counterfactual with its edited table, an unconfirmed table marked', () => {
    const group = buildGroup();
    const outcome = groupCounterfactualOf(group, EDIT);
    expect(outcome).toMatchObject({ kind: 'applied', chart: 2, changes: [expect.objectContaining({ row: '2020' })] });
    const markup = renderToStaticMarkup(createElement(ItemGroupCharts, { itemId: 1, group, outcome }));
    expect(markup.indexOf('Chart 1 · Cases')).toBeGreaterThan(-1);
    expect(markup.indexOf('Chart 2 · Deaths')).toBeGreaterThan(markup.indexOf('Chart 1 · Cases'));
    const first = section(markup, 1);
    const second = section(markup, 2);
    expect(first).not.toContain('edited by the assumption');
    // The counterfactual's place: the chart itself is drawn once the browser has laid out its box.
    expect(first).not.toContain('data-testid="chart-flip"');
    expect(first).not.toContain('group-chart-unconfirmed');
    expect(second).toContain('edited by the assumption');
    expect(second).toContain('data-testid="chart-flip"');
    expect(second).toContain('group-chart-unconfirmed');
    // The edited chart's table marks the changed cell: was 4, now 9.
    expect(second).toContain('cell-changed');
    expect(first).not.toContain('cell-changed');
  });

  it('names the chart the edit changed for the edit and verifier views; none for a single chart', () => {
    const group = buildGroup();
    expect(editedChartName(group, groupCounterfactualOf(group, EDIT))).toBe('Chart 2 · Deaths');
    expect(editedChartName(null, { kind: 'none' })).toBeNull();
  });

  it('reads an edit that does not name its chart as invalid over a group', () => {
    const outcome = groupCounterfactualOf(buildGroup(), [{ op: 'set', row: '2020', series: 'Africa', value: 9 }]);
    expect(outcome).toMatchObject({ kind: 'invalid', message: expect.stringContaining('does not name its chart') });
  });

  it('finds the group on whichever payload carries it, the same object each time, and null for a single-chart item', () => {
    const group = buildGroup();
    const task = { item: { id: 1 }, group };
    expect(itemGroupOf(task.item, task)).toEqual(group);
    expect(itemGroupOf(task.item, task)).toBe(itemGroupOf(task, task.item));
    expect(itemGroupOf({ item: { id: 1 }, group: null }, { id: 1 })).toBeNull();
    expect(itemGroupOf({ id: 1 })).toBeNull();
  });
});

describe('moving between charts in the zoom view', () => {
  it('] and [ step through the charts and wrap; a digit picks a chart that exists; other keys are not the view’s', () => {
    expect(zoomTarget(']', 1, 3)).toBe(2);
    expect(zoomTarget(']', 3, 3)).toBe(1);
    expect(zoomTarget('[', 1, 3)).toBe(3);
    expect(zoomTarget('[', 2, 3)).toBe(1);
    expect(zoomTarget('2', 1, 3)).toBe(2);
    expect(zoomTarget('4', 1, 3)).toBeNull();
    expect(zoomTarget('0', 1, 3)).toBeNull();
    expect(zoomTarget('a', 1, 3)).toBeNull();
  });
});
