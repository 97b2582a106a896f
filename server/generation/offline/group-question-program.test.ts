import { describe, expect, it } from 'vitest';
import { tableFromCells } from '../../../shared/table/model';
import { runProgram } from '../../../shared/table/program';
import { groupQuestionProgram } from './group-question-program';

// Two charts of one group: a region's sales (chart 1) and its costs (chart 2), by year.
const sales = tableFromCells(['Year', 'Sales', 'Staff'], [['2019', '10', '3'], ['2020', '12', '4'], ['2021', '15', '4']]);
const costs = tableFromCells(['Year', 'Costs'], [['2019', '4'], ['2020', '13'], ['2021', '9']]);
const group = [sales, costs];

describe('reading a group question as a program', () => {
  it('reads the difference form', () => {
    const read = groupQuestionProgram('What is the difference between Sales in the first chart and Costs in the second chart in 2019?', group, '6');
    expect(read).toMatchObject({
      form: 'difference',
      program: 'diff(value(1, "2019", "Sales"), value(2, "2019", "Costs"))',
      answer: '6',
      reads: [{ chart: 1, series: 'Sales', rows: ['2019'] }, { chart: 2, series: 'Costs', rows: ['2019'] }],
      hypothetical: 'What would be the difference between Sales in the first chart and Costs in the second chart in 2019?',
    });
  });

  it('reads the comparison form', () => {
    const read = groupQuestionProgram('Is Sales in the first chart higher than Costs in the second chart in 2020?', group, 'No');
    expect(read).toMatchObject({
      form: 'higher',
      program: 'if(value(1, "2020", "Sales") > value(2, "2020", "Costs"), "Yes", "No")',
      answer: 'No',
      hypothetical: 'Would Sales in the first chart be higher than Costs in the second chart in 2020?',
    });
  });

  it('reads the "when … was highest" form, tolerant of the names\' case', () => {
    const read = groupQuestionProgram('In the year when sales in the first chart was highest, what was costs in the second chart?', group, '9');
    expect(read).toMatchObject({
      form: 'at_highest',
      program: 'value(2, chart(1, argmax(series("Sales"))), "Costs")',
      answer: '9',
      reads: [{ chart: 1, series: 'Sales', rows: ['2019', '2020', '2021'] }, { chart: 2, series: 'Costs', rows: ['2021'] }],
      hypothetical: 'In the year when sales in the first chart would be highest, what would costs in the second chart be?',
    });
  });

  it('reads the total form', () => {
    const read = groupQuestionProgram('What is the total of Staff in the first chart and Costs in the second chart in 2021?', group, '13');
    expect(read).toMatchObject({ form: 'total', program: 'value(1, "2021", "Staff") + value(2, "2021", "Costs")', answer: '13' });
    if (read) expect(runProgram(group, read.program)).toMatchObject({ ok: true, value: 13 });
  });

  it('makes no program for a label it does not reproduce, a name the charts lack, another wording, or one chart', () => {
    expect(groupQuestionProgram('What is the total of Staff in the first chart and Costs in the second chart in 2021?', group, '14')).toBeNull();
    expect(groupQuestionProgram('What is the total of Profit in the first chart and Costs in the second chart in 2021?', group)).toBeNull();
    expect(groupQuestionProgram('What is the total of Sales in the first chart and Costs in the second chart in 2030?', group)).toBeNull();
    expect(groupQuestionProgram('How much did Sales exceed Costs in 2021?', group)).toBeNull();
    expect(groupQuestionProgram('What is the total of Sales in the first chart and Costs in the second chart in 2021?', [sales])).toBeNull();
  });

  it('quotes names holding quotes so the program still parses', () => {
    const quoted = tableFromCells(['Year', 'The "A" line'], [['2019', '1'], ['2020', '2']]);
    const other = tableFromCells(['Year', 'B'], [['2019', '5'], ['2020', '1']]);
    const read = groupQuestionProgram('What is the total of The "A" line in the first chart and B in the second chart in 2019?', [quoted, other], '6');
    expect(read?.program).toBe('value(1, "2019", "The \\"A\\" line") + value(2, "2019", "B")');
  });
});
