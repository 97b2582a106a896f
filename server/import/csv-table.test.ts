import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHARTQA_EXTRA, CHARTQA_MORE, CHARTQA_SAMPLE } from '../../test/support/paths';
import { parseTableCsv, readTableCsv } from './csv-table';
import { InputFileError } from './input-file-error';

function refusal(text: string): InputFileError {
  try {
    parseTableCsv(text, 'tables/t.csv');
  } catch (error) {
    if (error instanceof InputFileError) return error;
    throw error;
  }
  throw new Error('the table was accepted');
}

describe('a table repeating a row label or a series name', () => {
  it('is refused naming the file, the line of the repeat and the first one', () => {
    const error = refusal('Year,Sales\r\n2018,1\r\n2019,2\r\n2019,3\r\n');
    expect(error.file).toBe('tables/t.csv');
    expect(error.line).toBe(4);
    expect(error.message).toBe('tables/t.csv:4: row label "2019" repeats the row on line 3; row labels must differ');
  });

  it('counts lines as the file has them, blank lines included', () => {
    expect(refusal('\nYear,Sales\n\n2019,1\n\n2019,2\n').line).toBe(6);
  });

  it('names the header line and both columns of a repeated series', () => {
    const error = refusal('Country,Men,Women,Men\r\nA,1,2,3\r\n');
    expect(error.line).toBe(1);
    expect(error.message).toContain('series "Men" names columns 2 and 4 of the header');
  });

  it('keeps labels that differ only as lookups tell them apart (a footnote mark, case)', () => {
    const table = parseTableCsv('Year,Sales,sales\r\n2018,1,2\r\n2018*,3,4\r\n', 'tables/t.csv');
    expect(table.rows.map((row) => row.label)).toEqual(['2018', '2018*']);
    expect(table.series).toEqual(['Sales', 'sales']);
  });
});

describe('the real ChartQA tables', () => {
  it('repeat no row label and no series name, so every one still parses', () => {
    let tables = 0;
    for (const split of [CHARTQA_SAMPLE, CHARTQA_MORE, CHARTQA_EXTRA]) {
      for (const name of readdirSync(join(split, 'tables'))) {
        const table = readTableCsv(join(split, 'tables', name));
        expect(new Set(table.rows.map((row) => row.label)).size, name).toBe(table.rows.length);
        tables++;
      }
    }
    expect(tables).toBe(170);
  });
});
