import { describe, expect, it } from 'vitest';
import { toExtractedTable } from '../table-provenance/extracted-table';
import type { DataTable } from './model';
import { verifyItem } from './verify';

/**
 * An OWID-style line chart read by a vision model: the last year's values are printed at the
 * lines' ends, the earlier ones estimated from the axis. An item whose answer rests on an
 * estimate says so in its verifier notes, where reviewers read them.
 */
function extractedElectricity(): DataTable {
  const reply = toExtractedTable({
    orientation: 'none',
    stacking: 'none',
    chart_type: 'line',
    title: 'Share of the population with access to electricity, 2000 to 2020',
    label_header: 'Year',
    series: [
      { name: 'India', unit: '%' },
      { name: 'Kenya', unit: '%' },
    ],
    rows: [
      { label: '2000', values: [59.3, 15.2], printed: [false, false], total: null },
      { label: '2010', values: [76.3, 19.2], printed: [false, false], total: null },
      { label: '2020', values: [99, 71.4], printed: [true, true], total: null },
    ],
  });
  if (!reply.ok) throw new Error(reply.reason);
  return reply.value.table;
}

const estimatedNotes = (result: ReturnType<typeof verifyItem>) => result.lint.filter((finding) => finding.code === 'estimated_value');

describe('the verifier on values estimated from the axis', () => {
  const table = extractedElectricity();
  const edit = [{ op: 'set', row: '2020', series: 'Kenya', value: 80 }];

  it('warns when the answer depends on an estimated value the edit leaves, naming the cell', () => {
    const result = verifyItem({ table, chartType: 'line', edit, program: 'value("2020", "Kenya") - value("2010", "Kenya")', answer: '60.8' });
    expect(result.match).toBe(true);
    expect(estimatedNotes(result)).toEqual([
      {
        code: 'estimated_value',
        severity: 'warning',
        message: 'the answer depends on a value estimated from the chart\'s axis, not printed on it: "2010" × "Kenya" (19.2); check it against the image',
      },
    ]);
  });

  it('counts every estimated cell of a whole series the program reads', () => {
    const result = verifyItem({ table, chartType: 'line', edit, program: 'avg(series("India"))', answer: '78.2' });
    expect(estimatedNotes(result)[0]?.message).toContain('"2000" × "India" (59.3), "2010" × "India" (76.3)');
  });

  it('says nothing when the program reads printed values only, or the estimate is the cell the edit sets', () => {
    expect(estimatedNotes(verifyItem({ table, chartType: 'line', edit, program: 'value("2020", "Kenya") - value("2020", "India")', answer: '-19' }))).toEqual([]);
    const overEstimate = [{ op: 'set', row: '2010', series: 'Kenya', value: 30 }];
    expect(estimatedNotes(verifyItem({ table, chartType: 'line', edit: overEstimate, program: 'value("2010", "Kenya")', answer: '30' }))).toEqual([]);
  });

  it('notes an estimate the edit scales or shifts: the answer is as far off as the reading (Stage-2 item on multi_col_21019: fossil fuels + 6)', () => {
    const shifted = [{ op: 'add', row: '2010', series: 'Kenya', delta: 6 }];
    expect(estimatedNotes(verifyItem({ table, chartType: 'line', edit: shifted, program: 'value("2010", "Kenya")', answer: '25.2' }))[0]?.message).toContain('"2010" × "Kenya" (19.2)');
    const scaled = [{ op: 'scale', series: 'Kenya', factor: 0.5 }];
    expect(estimatedNotes(verifyItem({ table, chartType: 'line', edit: scaled, program: 'value("2010", "Kenya")', answer: '9.6' }))).toHaveLength(1);
  });

  it('notes a factual question read off an estimate too, and nothing on a table without flags', () => {
    expect(estimatedNotes(verifyItem({ table, chartType: 'line', program: 'value("2000", "India")', answer: '59.3' }))).toHaveLength(1);
    const imported: DataTable = { ...table, rows: table.rows.map(({ estimated: _estimated, ...row }) => row) };
    expect(estimatedNotes(verifyItem({ table: imported, chartType: 'line', edit, program: 'value("2010", "Kenya")', answer: '19.2' }))).toEqual([]);
  });
});
