import { describe, expect, it } from 'vitest';
import { readPaperTableFile } from '../../test/support/chart-hqa-paper';
import { declineRateDecimal, populationVarianceDecimal } from './metrics';
import { checkDeclineRate, checkVariance, PaperTableError, readPaperTable, type PaperTable, type Table3Row, type Table4Row } from './paper-tables';

/**
 * The Chart-HQA paper's Tables 3 and 4 (../shared/data/chart-hqa-paper, transcribed from arXiv
 * 2503.04095) reproduced by our metric functions, row by row. Two Table 3 rows do not follow
 * from their own accuracies (the paper's errata, named in that folder's README): they are
 * asserted as mismatches, with the values the formula gives, not bent to match.
 */

function table3(): Table3Row[] {
  const { path, text } = readPaperTableFile('table3.tsv');
  const table = readPaperTable(text, path);
  if (table.kind !== 'table3') throw new Error(`${path} read as ${table.kind}`);
  return table.rows;
}

function table4(): Table4Row[] {
  const { path, text } = readPaperTableFile('table4.tsv');
  const table = readPaperTable(text, path);
  if (table.kind !== 'table4') throw new Error(`${path} read as ${table.kind}`);
  return table.rows;
}

const key = (row: { model: string; params: string }) => `${row.model} (${row.params})`;

describe('the paper, Table 4', () => {
  it('holds 18 rows, Qwen2.5-VL twice (7B and 72B)', () => {
    const rows = table4();
    expect(rows).toHaveLength(18);
    expect(rows.filter((row) => row.model === 'Qwen2.5-VL').map((row) => row.params)).toEqual(['7B', '72B']);
  });

  it('every variance is the population variance of the row’s four accuracies, to two decimals', () => {
    const rows = table4();
    const mismatches = rows.filter((row) => populationVarianceDecimal([row.int, row.dec, row.bool, row.text]) !== Number(row.variance));
    expect(mismatches.map(key)).toEqual([]);
    expect(rows.every((row) => checkVariance(row).follows)).toBe(true);
  });

  it('is the population variance (÷ n), not the sample variance (÷ n − 1)', () => {
    const pix2struct = table4().find((row) => row.model === 'Pix2struct');
    expect(pix2struct?.variance).toBe('4.13');
    // 16.508… / 4 = 4.127 → 4.13; divided by 3 it would be 5.50.
    expect(populationVarianceDecimal(['17.81', '18.48', '20.21', '14.60'])).toBe(4.13);
  });
});

describe('the paper, Table 3', () => {
  it('holds 18 rows keyed by model + params', () => {
    const rows = table3();
    expect(rows).toHaveLength(18);
    expect(new Set(rows.map(key)).size).toBe(18);
  });

  it('16 decline rates follow from their two accuracies, rounded half-up on the exact decimal', () => {
    const rows = table3();
    const matching = rows.filter((row) => declineRateDecimal(row.chartqa_acc, row.chart_hqa_acc) === Number(row.decline_rate));
    expect(matching).toHaveLength(16);
  });

  it('InternVL-v2.5-8B is exactly 43.125 and rounds half-up to the printed 43.13', () => {
    const internvl = table3().find((row) => row.model === 'InternVL-v2.5-8B');
    expect(internvl).toMatchObject({ chartqa_acc: '84.80', chart_hqa_acc: '48.23', decline_rate: '43.13' });
    expect(declineRateDecimal('84.80', '48.23', 3)).toBe(43.125);
    expect(declineRateDecimal('84.80', '48.23')).toBe(43.13);
  });

  it('exactly ChartVLM-L and GPT-4V do not follow: the formula gives 67.65 and 28.04 where the paper prints 63.70 and 28.01', () => {
    const rows = table3();
    const mismatches = rows
      .filter((row) => declineRateDecimal(row.chartqa_acc, row.chart_hqa_acc) !== Number(row.decline_rate))
      .map((row) => ({ row: key(row), printed: row.decline_rate, computed: declineRateDecimal(row.chartqa_acc, row.chart_hqa_acc) }));
    expect(mismatches).toEqual([
      { row: 'ChartVLM-L (14.3B)', printed: '63.70', computed: 67.65 },
      { row: 'GPT-4V (-)', printed: '28.01', computed: 28.04 },
    ]);
  });

  it('the row check flags the same two rows, with the recomputed figure printed to the table’s decimals', () => {
    const flagged = table3()
      .map((row) => ({ row: key(row), check: checkDeclineRate(row) }))
      .filter(({ check }) => !check.follows);
    expect(flagged).toEqual([
      { row: 'ChartVLM-L (14.3B)', check: { printed: '63.70', recomputed: '67.65', follows: false } },
      { row: 'GPT-4V (-)', check: { printed: '28.01', recomputed: '28.04', follows: false } },
    ]);
  });
});

function readError(text: string): PaperTableError {
  try {
    readPaperTable(text, 'mine.tsv');
  } catch (error) {
    if (error instanceof PaperTableError) return error;
    throw error;
  }
  throw new Error('the table was read without an error');
}

const T3_HEADER = 'model\ttype\tparams\tchartqa_acc\tchartqa_rank\tchart_hqa_acc\tchart_hqa_rank\tdecline_rate';
const T3_ROW = 'TinyChart\tEnd-to-End\t3B\t83.60\t5\t30.79\t11\t63.17';

describe('readPaperTable', () => {
  it('reads either layout from its header, columns in any order, CRLF, a byte-order mark and blank lines', () => {
    const text = '\uFEFFmodel\tparams\ttype\tint\tdec\tbool\ttext\tvariance\r\n\r\nM\t7B\tEnd-to-End\t10\t20\t30\t40\t125.00\r\n';
    const table: PaperTable = readPaperTable(text, 'mine.tsv');
    expect(table).toEqual({ kind: 'table4', rows: [{ model: 'M', type: 'End-to-End', params: '7B', int: '10', dec: '20', bool: '30', text: '40', variance: '125.00' }] });
  });

  it('keeps figures as the decimal text printed and reads "-" as no rank', () => {
    const table = readPaperTable(`${T3_HEADER}\nX\tEnd-to-End\t-\t76.70\t-\t49.49\t6\t35.48\n`, 'mine.tsv');
    expect(table.rows[0]).toEqual({ model: 'X', type: 'End-to-End', params: '-', chartqa_acc: '76.70', chartqa_rank: null, chart_hqa_acc: '49.49', chart_hqa_rank: 6, decline_rate: '35.48' });
  });

  it('names the file, line and column of a cell its column refuses', () => {
    const error = readError(`${T3_HEADER}\n${T3_ROW}\nMatCha\tEnd-to-End\t0.3B\t64.2O\t15\t21.32\t14\t66.79\n`);
    expect({ line: error.line, column: error.column }).toEqual({ line: 3, column: 'chartqa_acc' });
    expect(error.message).toBe('mine.tsv, line 3, column chartqa_acc: "64.2O" is not a decimal number such as 83.60');
  });

  it('counts blank lines in the line number', () => {
    expect(readError(`${T3_HEADER}\n\n${T3_ROW}\nX\tE\t1B\t50\t1\t150\t2\t0\n`)).toMatchObject({ line: 4, column: 'chart_hqa_acc' });
  });

  it('refuses a percentage above 100, a bad rank, a short row and a long one', () => {
    expect(readError(`${T3_HEADER}\nX\tE\t1B\t100.01\t1\t50\t2\t3`).message).toContain('column chartqa_acc: "100.01" is a percentage above 100');
    expect(readError(`${T3_HEADER}\nX\tE\t1B\t80\t0\t50\t2\t3`)).toMatchObject({ line: 2, column: 'chartqa_rank' });
    expect(readError(`${T3_HEADER}\nX\tE\t1B\t80\t1\t50`)).toMatchObject({ line: 2, column: 'chart_hqa_rank' });
    expect(readError(`${T3_HEADER}\n${T3_ROW}\textra`)).toMatchObject({ line: 2, column: '9' });
  });

  it('refuses an unknown, a missing and a repeated column in the header', () => {
    expect(readError(T3_HEADER.replace('decline_rate', 'decline') + `\n${T3_ROW}`)).toMatchObject({ line: 1, column: 'decline' });
    expect(readError(T3_HEADER.replace('\tdecline_rate', '') + '\nX\tE\t1B\t80\t1\t50\t2')).toMatchObject({ line: 1, column: 'decline_rate' });
    expect(readError(T3_HEADER.replace('chartqa_rank', 'chartqa_acc') + `\n${T3_ROW}`)).toMatchObject({ line: 1, column: 'chartqa_acc' });
  });

  it('refuses a model + params seen before, naming the first line, but takes the same model at another size', () => {
    expect(readPaperTable(`${T3_HEADER}\n${T3_ROW}\n${T3_ROW.replace('3B', '7B')}`, 'mine.tsv').rows).toHaveLength(2);
    expect(readError(`${T3_HEADER}\n${T3_ROW}\n${T3_ROW}`).message).toBe('mine.tsv, line 3, column model: TinyChart (3B) is already on line 2: a row is keyed by model + params');
  });

  it('refuses a file with no header or no rows', () => {
    expect(readError('')).toMatchObject({ line: 1 });
    expect(readError(`${T3_HEADER}\n\n`)).toMatchObject({ line: 2, reason: 'the file holds a header and no rows' });
  });
});

describe('checkDeclineRate and checkVariance', () => {
  it('compare at the printed figure’s own decimals', () => {
    expect(checkDeclineRate({ chartqa_acc: '62.28', chart_hqa_acc: '20.15', decline_rate: '67.6' })).toEqual({ printed: '67.6', recomputed: '67.6', follows: true });
    expect(checkVariance({ int: '90', dec: '70', bool: '50', text: '30', variance: '500' })).toEqual({ printed: '500', recomputed: '500', follows: true });
    expect(checkVariance({ int: '90', dec: '70', bool: '50', text: '30', variance: '666.67' })).toMatchObject({ recomputed: '500.00', follows: false });
  });

  it('flag a decline rate that is undefined (Acc_QA of 0)', () => {
    expect(checkDeclineRate({ chartqa_acc: '0', chart_hqa_acc: '10', decline_rate: '0' })).toEqual({ printed: '0', recomputed: null, follows: false });
  });
});
