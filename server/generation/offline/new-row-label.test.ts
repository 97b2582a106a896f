import { describe, expect, it } from 'vitest';
import type { ChartType } from '../../../shared/domain/chart-types';
import { applyEdit } from '../../../shared/table/edit';
import { tableFacts } from '../../../shared/table/table-facts';
import { buildPieTable, buildTable } from '../../../test/support/table-fixtures';
import { parseIntent } from '../../../shared/generation/proposal-intent';
import { addRow } from './row-builders';
import { newRowLabel } from './new-row-label';
import { mulberry32 } from './rng';

/** A one-series table of these labels (values 10, 20, …). */
function labelled(labels: string[], header = 'Characteristic', series = 'Value'): string {
  return [`${header} | ${series}`, ...labels.map((label, i) => `${label} | ${(i + 1) * 10}`)].join('\n');
}

function labelFor(text: string, chartType: ChartType = 'vertical_bar', title = 'chart'): string | null {
  return newRowLabel(tableFacts(buildTable(text), chartType, title));
}

describe('newRowLabel names an added row in the chart’s own terms', () => {
  it('continues a time axis: a year after the last in the axis’s step, the next season or quarter', () => {
    expect(labelFor(labelled(['2019', '2018', '2017', '2016']), 'line')).toBe('2020');
    expect(labelFor(labelled(['2000', '2005', '2010']), 'line')).toBe('2015');
    expect(labelFor(labelled(['2013', '2018*']), 'line')).toBe('2023');
    expect(labelFor(labelled(['2019/20*', '2018/19', '2017/18']), 'line')).toBe('2020/21');
    expect(labelFor(labelled(['Q2 2019', 'Q3 2019', 'Q4 2019']), 'line')).toBe('Q1 2020');
    expect(labelFor(labelled(['Q1 2020', 'Q2 2020']), 'line')).toBe('Q3 2020');
    // A mixed axis has no single next step.
    expect(labelFor(labelled(['2017', 'Q1 2018']), 'line')).toBeNull();
  });

  it('continues months in their order and spelling, across a year end', () => {
    expect(labelFor(labelled(['Jan', 'Feb', 'Mar']))).toBe('Apr');
    expect(labelFor(labelled(['October', 'November', 'December']))).toBe('January');
    expect(labelFor(labelled(['Nov 2020', 'Dec 2020']))).toBe('Jan 2021');
    expect(labelFor(labelled(['Mar', 'Feb', 'Jan']))).toBe('Apr');
    expect(labelFor(labelled(['Jan', 'Mar', 'Feb']))).not.toBe('Apr');
  });

  it('adds another of the same kind: a country beside countries, written apart from the ones present under another name', () => {
    expect(labelFor(labelled(['Slovenia', 'Albania', 'Cameroon', 'Low income'], 'Country'))).toBe('Canada');
    expect(labelFor(labelled(['Canada', 'Germany', 'France'], 'Country'))).toBe('Japan');
    // "U.S" is the United States: it is not added a second time.
    const label = labelFor(labelled(['China', 'U.S', 'Japan', 'Canada', 'Germany', 'France', 'Brazil', 'Italy', 'Spain', 'Mexico', 'India', 'Australia'], 'Entity'));
    expect(label).toBe('United Kingdom');
    expect(labelFor(labelled(['Facebook', 'Instagram', 'TikTok']))).toBe('YouTube');
    expect(labelFor(labelled(['Texas', 'Florida', 'California']))).toBe('New York');
  });

  it('names "Other" in a chart of shares, and another of the kind when the chart already has one', () => {
    expect(newRowLabel(tableFacts(buildPieTable(), 'pie', 'Do you shop online?'))).toBe('Other');
    expect(labelFor(labelled(['Recipe', 'Crafts', 'Comedy', 'Other*']), 'pie')).toBeNull();
    expect(labelFor(labelled(['Germany', 'France', 'Others']), 'pie')).toBe('Canada');
  });

  it('adds no row to labels of no known kind that are not shares: a made-up "Other airlines" reads as nonsense, and a letter placeholder too', () => {
    expect(labelFor(labelled(['Aeroflot', 'S7 Airlines', 'Pobeda'], 'Airline'))).toBeNull();
    expect(labelFor(labelled(['Increase', 'Stay about the same', 'Decrease']))).toBeNull();
    expect(labelFor(labelled(['Increase', 'Other']))).toBeNull();
  });
});

describe('addRow uses it', () => {
  it('adds a named country with values that the edit applies', () => {
    const table = buildTable(labelled(['Germany', 'France', 'Italy'], 'Country', 'GDP growth in %'));
    const facts = tableFacts(table, 'vertical_bar', 'GDP growth by country');
    const column = facts.columns[0];
    if (!column) throw new Error('the table has a column');
    const draft = addRow({ facts, column, row: 'Germany', partner: 'France', intent: parseIntent('a new country joins the chart'), rng: mulberry32(1) });
    expect(draft?.edit[0]).toMatchObject({ op: 'add_row', row: 'Canada' });
    expect(draft?.assumption).toContain('"Canada"');
    const applied = draft ? applyEdit(table, draft.edit) : null;
    if (!applied?.ok) throw new Error('the added row applies');
    expect(applied.table.rows.map((row) => row.label)).toEqual(['Germany', 'France', 'Italy', 'Canada']);
  });
});
