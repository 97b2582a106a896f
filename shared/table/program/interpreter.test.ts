import { describe, expect, it } from 'vitest';
import { buildSalesTable, buildTable } from '../../../test/support/table-fixtures';
import { formatAnswer, INTERNAL_PROGRAM_ERROR, KNOWN_FUNCTIONS, runProgram } from './index';

const sales = buildSalesTable();
/** Single series, a tie at the top, a missing cell. */
const scores = buildTable(`
  Country | Score
  Angola  | 25
  Cuba    | 50
  Chile   | nan
  Peru    | 50
  Togo    | 10
`);

function answer(source: string, table = sales): string {
  const result = runProgram(table, source);
  if (!result.ok) throw new Error(`${source}: ${result.error.message} @${result.error.position}`);
  return result.answer;
}

function error(source: string, table = sales) {
  const result = runProgram(table, source);
  if (result.ok) throw new Error(`${source} should fail but gave ${result.answer}`);
  return result.error;
}

describe('literals and operators', () => {
  it.each([
    ['1 + 2 * 3', '7'],
    ['(1 + 2) * 3', '9'],
    ['7 / 2', '3.5'],
    ['-3 - -4', '1'],
    ['1 / 3', '0.3333'],
    ['"text"', 'text'],
    ["'single'", 'single'],
    ['true', 'Yes'],
    ['FALSE', 'No'],
    ['2 > 1', 'Yes'],
    ['2 < 1', 'No'],
    ['2 >= 2', 'Yes'],
    ['2 <= 1.5', 'No'],
    ['0.1 + 0.2 == 0.3', 'Yes'],
    ['1 != 1', 'No'],
    ['"Cuba " == "cuba"', 'Yes'],
    ['"2017" == 2017', 'Yes'],
    ['true == false', 'No'],
    ['not 1 > 2', 'Yes'],
    ['true and false', 'No'],
    ['false or true', 'Yes'],
  ])('%s → %s', (source, expected) => {
    expect(answer(source)).toBe(expected);
  });

  it('short-circuits and/or and evaluates only the chosen branch of if', () => {
    expect(answer('false and 1 / 0 > 1')).toBe('No');
    expect(answer('true or value("nope", "x") > 1')).toBe('Yes');
    expect(answer('if(2 > 1, "big", 1 / 0)')).toBe('big');
    expect(answer('if(2 < 1, 1 / 0, 7)')).toBe('7');
  });

  it('rejects operands of the wrong type, pointing at the operator or operand', () => {
    expect(error('1 + "a"')).toEqual({ message: expect.stringMatching(/\+ needs numbers.*the string "a"/), position: 2 });
    expect(error('1 and true')).toEqual({ message: expect.stringMatching(/and needs true or false/), position: 0 });
    expect(error('not 3')).toEqual({ message: expect.stringMatching(/not needs true or false/), position: 4 });
    expect(error('"a" < "b"')).toEqual({ message: expect.stringMatching(/< compares numbers/), position: 4 });
    expect(error('true == 1')).toEqual({ message: expect.stringMatching(/cannot compare/), position: 5 });
    expect(error('series("Online") > 1').message).toMatch(/use where\(list/);
    expect(error('if(1, 2, 3)')).toEqual({ message: expect.stringMatching(/if needs true or false/), position: 3 });
  });

  it('reports division by zero and overflow', () => {
    expect(error('1 / (2 - 2)')).toEqual({ message: 'division by zero', position: 2 });
    expect(error('1e300 * 1e300').message).toMatch(/too large/);
    expect(error('series("Online") / 0').message).toMatch(/division by zero at "2017"/);
  });
});

describe('table functions', () => {
  it('value(row, series) and value(row) read cells with tolerant labels', () => {
    expect(answer('value("2018", "Online")')).toBe('12.5');
    expect(answer('value(2019, "offline")')).toBe('85');
    expect(answer('value("cuba")', scores)).toBe('50');
  });

  it('value names the valid labels, a needed series, or a missing cell', () => {
    expect(error('value("2016", "Online")')).toEqual({ message: expect.stringContaining('the rows are "2017", "2018", "2019*", "2020"'), position: 6 });
    expect(error('value("2017", "Retail")')).toEqual({ message: expect.stringContaining('the series are "Online", "Offline"'), position: 14 });
    expect(error('value("2017")').message).toMatch(/needs a series too.*"Online", "Offline"/);
    expect(error('value("2019", "Online")').message).toMatch(/has no number \(it holds "nan"\)/);
    expect(error('value(series("Online"))').message).toMatch(/expected a row label/);
  });

  it('series() and row() are labelled lists; rows() and series_names() are countable', () => {
    expect(answer('sum(series("Online"))')).toBe('42.5');
    expect(answer('sum(series())', scores)).toBe('135');
    expect(answer('sum(row("2018"))')).toBe('100');
    expect(answer('count(rows())')).toBe('4');
    expect(answer('count(series_names())')).toBe('2');
    expect(error('series()').message).toMatch(/needs a name/);
    expect(error('sum(rows())').message).toMatch(/can only be counted/);
  });

  it('aggregates skip missing cells and accept several arguments', () => {
    expect(answer('avg(series("Online"))')).toBe('14.1667');
    expect(answer('median(series("Online"))')).toBe('12.5');
    expect(answer('median(series())', scores)).toBe('37.5');
    expect(answer('min(series("Online"))')).toBe('10');
    expect(answer('max(series("Online"))')).toBe('20');
    expect(answer('count(series("Online"))')).toBe('3');
    expect(answer('avg(max(series()), min(series()))', scores)).toBe('30');
    expect(answer('max(1, 5, 3)')).toBe('5');
    expect(answer('sum(series("Online"), 100)')).toBe('142.5');
  });

  it('aggregates of nothing: sum is 0, the others are errors', () => {
    expect(answer('sum(where(series("Online"), ">", 100))')).toBe('0');
    expect(error('avg(where(series("Online"), ">", 100))').message).toMatch(/avg\(\) of no values/);
    expect(error('count(3)').message).toMatch(/count\(\) needs a list/);
  });

  it('argmax/argmin answer with the row label of a series or the series name of a row; first wins a tie', () => {
    expect(answer('argmax(series("Online"))')).toBe('2020');
    expect(answer('argmin(series("Offline"))')).toBe('2020');
    expect(answer('argmax(row("2017"))')).toBe('Offline');
    expect(answer('argmin(row("2017"))')).toBe('Online');
    expect(answer('argmax(series())', scores)).toBe('Cuba');
    expect(error('argmax(where(series("Online"), "<", 0))').message).toMatch(/argmax\(\) of no values/);
    expect(error('argmax(3)').message).toMatch(/needs a list/);
  });

  it('where() keeps the elements passing a comparison, labels included', () => {
    expect(answer('count(where(series(), "==", 50))', scores)).toBe('2');
    expect(answer('count(where(series(), ">=", 25))', scores)).toBe('3');
    expect(answer('count(where(series(), "!=", 50))', scores)).toBe('2');
    expect(answer('argmax(where(series(), "<", max(series())))', scores)).toBe('Angola');
    expect(answer('argmin(where(series(), "<=", 10))', scores)).toBe('Togo');
    expect(error('where(series(), "=", 5)', scores)).toEqual({ message: expect.stringMatching(/comparison in quotes/), position: 16 });
    expect(error('where(series(), ">", "x")', scores).message).toMatch(/needs a number here/);
  });

  it('diff is the absolute difference, ratio the quotient, both element-wise on lists', () => {
    expect(answer('diff(3, 10)')).toBe('7');
    expect(answer('diff(value("2017", "Online"), value("2020", "Online"))')).toBe('10');
    expect(answer('ratio(value("2020", "Online"), value("2017", "Online"))')).toBe('2');
    expect(error('ratio(1, 0)')).toEqual({ message: 'division by zero', position: 0 });
    expect(answer('max(diff(series("Online"), series("Offline")))')).toBe('80');
    expect(answer('argmin(abs(series("Offline") - series("Online")))')).toBe('2020');
    expect(answer('sum(ratio(series("Online"), 10))')).toBe('4.25');
  });

  it('element-wise arithmetic needs lists with the same labels', () => {
    expect(answer('sum(series("Online") * 2)')).toBe('85');
    expect(answer('sum(100 - series("Online"))')).toBe('257.5');
    expect(answer('sum(-row("2017"))')).toBe('-100');
    expect(error('series("Online") - row("2017")').message).toMatch(/a list over rows and a list over series/);
    expect(error('series("Online") - where(series("Offline"), ">", 85)').message).toMatch(/different labels/);
    expect(error('rows() + 1').message).toMatch(/\+ needs numbers or lists of numbers, not a list of 4 row labels/);
  });

  it('abs and round work on numbers and lists; round takes 0 to 10 digits', () => {
    expect(answer('abs(-2.5)')).toBe('2.5');
    expect(answer('round(2.345, 2)')).toBe('2.35');
    expect(answer('round(1.005, 2)')).toBe('1.01');
    expect(answer('round(-2.5)')).toBe('-3');
    expect(answer('round(1234.5678, 0)')).toBe('1235');
    expect(answer('sum(round(series("Online")))')).toBe('43');
    expect(error('round(1, 11)').message).toMatch(/0 to 10/);
    expect(error('round(1, 1.5)')).toEqual({ message: expect.stringMatching(/whole number of digits/), position: 9 });
  });

  it('checks argument counts and names the signature', () => {
    expect(error('diff(1)')).toEqual({ message: expect.stringMatching(/diff\(\) takes 2 arguments — diff\(a, b\) — but got 1/), position: 0 });
    expect(error('rows(1)').message).toMatch(/takes 0 arguments/);
    expect(error('sum()').message).toMatch(/at least 1/);
    expect(error('if(true, 1)').message).toMatch(/if\(condition, then, else\)/);
    expect(error('value("a", "b", "c", "d")').message).toMatch(/1 to 3 arguments/);
  });

  it('names the known functions when one is unknown, and is case-insensitive', () => {
    const unknown = error('2 + mean(series("Online"))');
    expect(unknown.position).toBe(4);
    expect(unknown.message).toContain(KNOWN_FUNCTIONS.join(', '));
    expect(error('toString()').message).toMatch(/unknown function "tostring"/);
    expect(error('constructor()').message).toMatch(/unknown function/);
    expect(answer('SUM(Series("Online"))')).toBe('42.5');
  });
});

describe('results and limits', () => {
  it('a list is not an answer', () => {
    expect(error('series("Online")').message).toMatch(/the result is a list of 4 values over rows/);
    expect(error('rows()').message).toMatch(/row labels/);
  });

  it('stops after the step budget', () => {
    const result = runProgram(sales, 'sum(series("Online")) + sum(series("Offline"))', { maxSteps: 6 });
    expect(result).toEqual({ ok: false, error: { message: 'the program needs more than 6 evaluation steps', position: expect.any(Number) } });
    expect(runProgram(sales, '1 + 1', { maxSteps: 3 }).ok).toBe(true);
  });

  it('never reports an internal error for the documented functions', () => {
    for (const name of KNOWN_FUNCTIONS) {
      for (const args of ['', '1', '"x"', 'series("Online")', 'rows()', '1, 2', '1, "x", 3', 'true, 1, 2']) {
        const result = runProgram(sales, `${name}(${args})`);
        if (!result.ok) expect(result.error.message).not.toBe(INTERNAL_PROGRAM_ERROR);
      }
    }
  });
});

describe('formatAnswer', () => {
  it.each([
    [3, '3'],
    [0.08000000000000007, '0.08'],
    [14.329999999999998, '14.33'],
    [1 / 3, '0.3333'],
    [2 / 3, '0.6667'],
    [-0.00001, '0'],
    [-1.5, '-1.5'],
    [10085207, '10085207'],
    [123456789012345680000, '123456789012345680000'],
    [1e-7, '0'],
    [true, 'Yes'],
    [false, 'No'],
    ['Harry Kane', 'Harry Kane'],
  ])('%s → %s', (value, expected) => {
    expect(formatAnswer(value)).toBe(expected);
  });
});
