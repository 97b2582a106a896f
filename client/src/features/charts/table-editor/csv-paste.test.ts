import { describe, expect, it } from 'vitest';
import { parsePastedTable } from './csv-paste';

describe('parsePastedTable', () => {
  it('reads CSV with quoted cells and a header line', () => {
    expect(parsePastedTable('Year,"Sales, EU",Profit\n2019,"1,200",3\n2020,14,\n', 'T')).toEqual({
      title: 'T',
      label_header: 'Year',
      series: ['Sales, EU', 'Profit'],
      rows: [
        { label: '2019', cells: ['1,200', '3'] },
        { label: '2020', cells: ['14', ''] },
      ],
    });
  });

  it('reads tab-separated cells as a spreadsheet copies them, and pads short rows', () => {
    expect(parsePastedTable('Country\tShare\tOther\r\nSay "x"\t5\r\n', null)).toEqual({
      title: null,
      label_header: 'Country',
      series: ['Share', 'Other'],
      rows: [{ label: 'Say "x"', cells: ['5', ''] }],
    });
  });

  it('keeps a long row’s extra cells and doubled quotes', () => {
    const parsed = parsePastedTable('A,B\nx,"say ""hi""",extra', null);
    expect(parsed).toMatchObject({ rows: [{ label: 'x', cells: ['say "hi"', 'extra'] }] });
  });

  it('names what is missing', () => {
    expect(parsePastedTable('Year,Sales', null)).toEqual({ error: 'paste a header line and at least one row' });
    expect(parsePastedTable('Year\n2019', null)).toEqual({ error: 'the header line names no series (after the row label header)' });
  });
});
