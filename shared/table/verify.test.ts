import { describe, expect, it } from 'vitest';
import { buildApprovalTable, buildPieTable, buildSalesTable, buildSecurityTable, buildTable } from '../../test/support/table-fixtures';
import { VerifierResultSchema, verifyItem } from './verify';

describe('verifyItem', () => {
  it('recomputes the answer on the edited table and matches it under relaxed correctness', () => {
    const result = verifyItem({
      table: buildSalesTable(),
      chartType: 'line',
      edit: [{ op: 'add', row: '2020', series: 'Online', delta: 2 }, { op: 'add', row: '2020', series: 'Offline', delta: -2 }],
      program: 'value("2020", "Online")',
      answer: '23',
    });
    expect(result).toEqual({
      recomputed_answer: '22',
      answer_type: 'integer',
      match: true,
      lint: [],
      error: null,
      original_answer: '20',
      answer_unchanged: false,
      proposal_consistent: null,
      match_rule: 'relaxed',
    });
    expect(VerifierResultSchema.parse(result)).toEqual(result);
  });

  it('compares a person’s (gold) answer at its own precision, never with the model’s 5 %', () => {
    // Online 2020 = 20, scaled by 20.94 → 418.8: a model's 400 is within 5 %, a person's is not.
    const table = buildSalesTable();
    const edit = [{ op: 'scale', row: '2020', series: 'Online', factor: 20.94 }];
    const program = 'value("2020", "Online")';
    const ask = (answer: string, answerRule?: 'relaxed' | 'precision') =>
      verifyItem({ table, chartType: 'line', edit, program, answer, ...(answerRule && { answerRule }) });
    expect(ask('400')).toMatchObject({ recomputed_answer: '418.8', match: true, match_rule: 'relaxed' });
    expect(ask('400', 'precision')).toMatchObject({ recomputed_answer: '418.8', match: false, match_rule: 'precision' });
    expect(ask('419', 'precision').match).toBe(true);
    expect(ask('418.8', 'precision').match).toBe(true);
    expect(ask('418.7', 'precision').match).toBe(false);
    // An edit or program that fails compares nothing, under either rule.
    expect(verifyItem({ table, chartType: 'line', edit, program: 'value("2031", "Online")', answer: '1', answerRule: 'precision' })).toMatchObject({
      match: null,
      match_rule: 'precision',
    });
  });

  it('reads a verdict stored before the rule existed as relaxed', () => {
    const { match_rule: _rule, ...stored } = verifyItem({ table: buildSalesTable(), chartType: 'line', program: 'value(2017, "Online")', answer: '10' });
    expect(VerifierResultSchema.parse(stored).match_rule).toBe('relaxed');
  });

  it('reports a wrong answer as no match, with lint findings alongside', () => {
    const result = verifyItem({
      table: buildPieTable(),
      chartType: 'pie',
      edit: [{ op: 'set', row: 'Yes', value: 30 }],
      program: 'argmax(series()) == "Yes"',
      answer: 'yes',
    });
    expect(result.recomputed_answer).toBe('No');
    expect(result.answer_type).toBe('boolean');
    expect(result.match).toBe(false);
    expect(result.lint.map((f) => f.code)).toEqual(['pie_sum', 'answer_unchanged']);
    expect(result).toMatchObject({ original_answer: 'No', answer_unchanged: true });
  });

  it('accepts the edit as JSON text and no edit at all', () => {
    const table = buildSalesTable();
    const asText = verifyItem({ table, chartType: 'line', edit: '[{"op":"add","delta":1}]', program: 'value(2017, "Online")', answer: '11' });
    expect(asText.match).toBe(true);
    const none = verifyItem({ table, chartType: 'line', program: 'value(2017, "Online")', answer: '10' });
    expect(none).toMatchObject({ recomputed_answer: '10', match: true, lint: [] });
    const empty = verifyItem({ table, chartType: 'line', edit: [], program: 'value(2017, "Online")', answer: '10' });
    expect(empty.lint.map((f) => f.code)).toEqual(['no_change']);
  });

  it('stops at an invalid or failing edit, with stage "edit" and lint findings', () => {
    const invalid = verifyItem({ table: buildSalesTable(), chartType: 'line', edit: [{ op: 'double' }], program: '1', answer: '1' });
    expect(invalid).toMatchObject({ recomputed_answer: null, match: null, error: { stage: 'edit' } });
    const unknown = verifyItem({
      table: buildSalesTable(),
      chartType: 'line',
      edit: [{ op: 'set', row: '2030', series: 'Online', value: 1 }],
      program: '1',
      answer: '1',
    });
    expect(unknown.error).toEqual({ stage: 'edit', message: expect.stringContaining('unknown row "2030"') });
    expect(unknown.lint.map((f) => f.code)).toEqual(['unknown_label']);
  });

  it('reports a program error with its position', () => {
    const result = verifyItem({ table: buildSalesTable(), chartType: 'line', edit: null, program: 'sum(series("Retail"))', answer: '3' });
    expect(result).toMatchObject({ recomputed_answer: null, answer_type: 'integer', match: null, error: { stage: 'program', position: 11 } });
    expect(result.error?.message).toMatch(/unknown series "Retail"/);
  });

  it('compares a label answer as a label: argmax 2018 is not 2020, however close the numbers', () => {
    const table = buildTable(`
      Year | Sales
      2018 | 50
      2019 | 40
      2020 | 45
    `);
    const wrong = verifyItem({ table, chartType: 'line', edit: [{ op: 'add', row: '2020', delta: 1 }], program: 'argmax(series())', answer: '2020' });
    expect(wrong).toMatchObject({ recomputed_answer: '2018', match: false });
    const right = verifyItem({ table, chartType: 'line', edit: [{ op: 'add', row: '2020', delta: 10 }], program: 'argmax(series())', answer: '2020*' });
    expect(right).toMatchObject({ recomputed_answer: '2020', match: true, answer_unchanged: false, original_answer: '2018' });
    // A label spelled loosely still identifies the row: case, quotes, a final period.
    const named = buildTable(`
      Country | Revenue
      U.S.    | 10
      Canada  | 5
    `);
    expect(verifyItem({ table: named, chartType: 'vertical_bar', edit: [], program: 'argmax(series())', answer: '"u.s."' }).match).toBe(true);
    // A year given as a number answer is still a label when years are the rows.
    expect(verifyItem({ table, chartType: 'line', edit: null, program: 'if(value(2018) > 45, 2018, 2019)', answer: '2019' }).match).toBe(false);
  });

  it('keeps the relaxed rule for amounts, and the sign of a difference', () => {
    const table = buildTable(`
      Year | Sales
      2018 | 50
      2019 | 40
    `);
    const close = verifyItem({ table, chartType: 'line', edit: [{ op: 'set', row: '2019', value: 100 }], program: 'value(2019) - value(2018)', answer: '51' });
    expect(close).toMatchObject({ recomputed_answer: '50', match: true });
    const flipped = verifyItem({ table, chartType: 'line', edit: [{ op: 'set', row: '2019', value: 10 }], program: 'value(2019) - value(2018)', answer: '40' });
    expect(flipped).toMatchObject({ recomputed_answer: '-40', match: false });
  });

  it('rounds an unrounded result to the table precision plus two digits, and leaves a rounded one alone', () => {
    const table = buildTable(`
      Year | Index
      2018 | 101.3
      2019 | 98.1
      2020 | 99.7
    `);
    const avg = verifyItem({ table, chartType: 'line', edit: [{ op: 'add', row: '2020', delta: 0.1 }], program: 'avg(series())', answer: '99.7' });
    expect(avg.recomputed_answer).toBe('99.733');
    expect(avg.original_answer).toBe('99.7');
    const rounded = verifyItem({ table, chartType: 'line', edit: null, program: 'round(avg(series()), 4)', answer: '99.7' });
    expect(rounded.recomputed_answer).toBe('99.7');
  });

  it('flags an assumption that leaves the answer unchanged', () => {
    const result = verifyItem({
      table: buildSalesTable(),
      chartType: 'line',
      edit: [{ op: 'scale', row: '2017', series: 'Online', factor: 1.01 }],
      program: 'value("2020", "Online")',
      answer: '20',
    });
    expect(result).toMatchObject({ answer_unchanged: true, original_answer: '20', recomputed_answer: '20' });
    expect(result.lint.map((f) => f.code)).toContain('answer_unchanged');
  });

  it('checks the edit against the proposal: the op it names, on the row its rank names, in its direction', () => {
    const table = buildTable(`
      Country | Revenue
      France  | 30
      Germany | 50
      Spain   | 10
    `);
    const check = (proposal: string, edit: unknown) =>
      verifyItem({ table, chartType: 'vertical_bar', edit, program: 'argmax(series())', answer: 'Germany', proposal });
    expect(check('Double the value of the smallest bar.', [{ op: 'scale', row: 'Spain', factor: 2 }]).proposal_consistent).toBe(true);
    const wrongRow = check('Double the value of the smallest bar.', [{ op: 'scale', row: 'France', factor: 2 }]);
    expect(wrongRow.proposal_consistent).toBe(false);
    expect(wrongRow.lint.find((f) => f.code === 'proposal_inconsistent')?.message).toMatch(/smallest row \("Spain"\).*"France"/);
    expect(check('Remove the largest bar from the chart.', [{ op: 'scale', row: 'Germany', factor: 0.5 }]).proposal_consistent).toBe(false);
    expect(check('Lower the largest bar until it falls below the median one.', [{ op: 'add', row: 'Germany', delta: 30 }]).proposal_consistent).toBe(false);
    expect(check('Increase every bar by 20 percent.', [{ op: 'scale', factor: 1.2 }]).proposal_consistent).toBe(true);
    expect(check('Increase every bar by 20 percent.', [{ op: 'scale', row: 'Spain', factor: 1.2 }]).proposal_consistent).toBe(false);
    // Counts scaled and rounded one bar at a time: every bar set, none naming the one series.
    const rounded = [
      { op: 'set', row: 'France', value: 36 },
      { op: 'set', row: 'Germany', value: 60 },
      { op: 'set', row: 'Spain', value: 12 },
    ];
    expect(check('Increase every bar by 20 percent.', rounded).proposal_consistent).toBe(true);
    expect(check('Increase every bar by 20 percent.', rounded.slice(0, 2)).proposal_consistent).toBe(false);
    // "So that it overtakes another line": a shift that passes none is not that operation (real: multi_col_441, Africa +10).
    const lines = buildTable(`
      Year | Africa | Asia
      2019 | 28.6 | 44.5
      2018 | 26.3 | 41.7
    `);
    const shift = (delta: number) =>
      verifyItem({ table: lines, chartType: 'line', edit: [{ op: 'add', series: 'Africa', delta }], program: 'value("2019", "Africa")', answer: '0', proposal: 'Shift one line up by a constant amount in every period so that it overtakes another line.' });
    expect(shift(10).lint.find((f) => f.code === 'proposal_inconsistent')?.message).toMatch(/the moved line \("Africa"\) passes no other line/);
    expect(shift(17).proposal_consistent).toBe(true);
    expect(check('Swap the values of the largest and the smallest bars.', [{ op: 'swap', rows: ['Spain', 'Germany'] }]).proposal_consistent).toBe(true);
    expect(check('Merge the two smallest slices into one.', [{ op: 'remove_row', row: 'Spain' }]).proposal_consistent).toBeNull();
    // The mean of 30, 50 and 10 is 30.
    expect(check('Add a new bar whose value sits at the average of the others.', [{ op: 'add_row', row: 'Italy', values: 30 }]).proposal_consistent).toBe(true);
    const aboveAverage = check('Add a new bar whose value sits at the average of the others.', [{ op: 'add_row', row: 'Italy', values: 55 }]);
    expect(aboveAverage.proposal_consistent).toBe(false);
    expect(aboveAverage.lint.find((f) => f.code === 'proposal_inconsistent')?.message).toMatch(/at the average \(30\).*gives it 55/);
    expect(check('Add a new bar.', [{ op: 'add_row', row: 'Italy', values: 55 }]).proposal_consistent).toBe(true);
  });

  it('holds a new period that repeats the last change to the last value plus the last step, on months too', () => {
    // May 51 → Jun 49, so Jul 47.
    const approval = buildApprovalTable();
    const proposal = 'Extend the line by one more period that repeats the change between its last two points.';
    const adding = (table: typeof approval, values: Record<string, number>) =>
      verifyItem({ table, chartType: 'line', edit: [{ op: 'add_row', row: 'Jul', values }], program: 'count(where(series("Approve"), ">", 50))', answer: '3', proposal });
    expect(adding(approval, { Approve: 47, Disapprove: 0 }).proposal_consistent).toBe(true);
    const above = adding(approval, { Approve: 57, Disapprove: 0 });
    expect(above.proposal_consistent).toBe(false);
    expect(above.lint.find((f) => f.code === 'proposal_inconsistent')?.message).toMatch(/repeats the last change \(-2 for "Approve": 47\), but the edit gives the new period 57/);
    // Categories that are no periods have no last change.
    const countries = buildTable(`
      Country | Approve
      France  | 52
      Spain   | 49
    `);
    expect(adding(countries, { Approve: 46 }).lint.find((f) => f.code === 'proposal_inconsistent')?.message).toMatch(/no periods/);
  });

  it('ranks a removed category of several series by its total, not by whichever series puts it at the rank', () => {
    // Totals 95, 93, 127, 123, 72, 98 (buildSecurityTable).
    const secure = buildSecurityTable();
    const removing = (proposal: string, row: string) =>
      verifyItem({ table: secure, chartType: 'grouped_bar', edit: [{ op: 'remove_row', row }], program: 'count(labels())', answer: '5', proposal });
    const median = 'Remove the median category from the chart together with its bars.';
    // Sending email is the median of "Somewhat secure" alone, and the largest category by total.
    const email = removing(median, 'Sending email');
    expect(email.proposal_consistent).toBe(false);
    expect(email.lint.find((f) => f.code === 'proposal_inconsistent')?.message).toMatch(/median category \("Using social media sites", by its total over the series\), but the edit removes "Sending email"/);
    expect(removing(median, 'Using social media sites').proposal_consistent).toBe(true);
    // "The tallest bar": the largest category, or the row holding the tallest single bar (53).
    expect(removing('Remove the tallest bar from the chart.', 'Sending email').proposal_consistent).toBe(true);
    expect(removing('Remove the tallest bar from the chart.', 'Using social media sites').proposal_consistent).toBe(true);
    expect(removing('Remove the tallest bar from the chart.', 'Using a landline').proposal_consistent).toBe(false);
  });

  it('lints the item: an answer the assumption states, a sum of percentages, an implausible value', () => {
    const table = buildTable(`
      Country  | Value
      Slovenia | 1
      Austria  | 3
    `);
    const stated = verifyItem({
      table,
      chartType: 'vertical_bar',
      edit: [{ op: 'set', row: 'Slovenia', value: 0 }],
      program: 'value("Slovenia")',
      answer: '0',
      assumption: 'Suppose the value of Slovenia were 0.',
    });
    expect(stated.lint.map((f) => f.code)).toContain('assumption_states_answer');
    const shares = buildTable(`
      Year | Share of online sales
      2013 | 6.8%
      2018 | 11%
    `);
    const summed = verifyItem({ table: shares, chartType: 'line', edit: [{ op: 'add', row: '2018', delta: 2 }], program: 'sum(series())', answer: '19.8' });
    expect(summed.lint.map((f) => f.code)).toContain('meaningless_aggregate');
    const temperature = buildTable(`
      Month | Average temperature in °C
      Jan   | 2.5
      Feb   | 4
    `);
    const hot = verifyItem({ table: temperature, chartType: 'line', edit: [{ op: 'add', row: 'Feb', delta: 1 }], program: 'sum(series())', answer: '7.5' });
    expect(hot.lint.find((f) => f.code === 'meaningless_aggregate')?.message).toMatch(/temperature/);
    const rating = buildTable(`
      Hotel | Rating
      A     | 4.5
      B     | 3.9
    `);
    const tooGood = verifyItem({ table: rating, chartType: 'horizontal_bar', edit: [{ op: 'scale', row: 'A', factor: 2 }], program: 'value("A")', answer: '9' });
    expect(tooGood.lint.find((f) => f.code === 'implausible_value')?.message).toMatch(/scale of 0–5/);
    const pie = verifyItem({ table: buildPieTable(), chartType: 'pie', edit: [{ op: 'add', row: 'Yes', delta: 2 }, { op: 'add', row: 'No, and I don\'t plan to', delta: -2 }], program: 'sum(series())', answer: '100' });
    expect(pie.lint.map((f) => f.code)).not.toContain('meaningless_aggregate');
  });

  it('keeps the parts of one whole on any chart: shares summing to 100, groups of shares, a market', () => {
    const answers = buildTable(`
      Answer         | Share of respondents
      Very satisfied | 30%
      Satisfied      | 45%
      Not satisfied  | 25%
    `);
    const scaled = verifyItem({ table: answers, chartType: 'horizontal_bar', edit: [{ op: 'scale', factor: 1.5 }], program: 'value("Satisfied")', answer: '67.5' });
    expect(scaled.lint.map((f) => f.code)).toContain('share_sum');
    const moved = verifyItem({ table: answers, chartType: 'horizontal_bar', edit: [{ op: 'add', row: 'Satisfied', delta: 5 }, { op: 'add', row: 'Not satisfied', delta: -5 }], program: 'value("Satisfied")', answer: '50' });
    expect(moved.lint.map((f) => f.code)).not.toContain('share_sum');
    // A share per year is no whole, even when the years happen to sum to 100.
    const years = buildTable(`
      Year | Share
      2018 | 50%
      2019 | 50%
    `);
    expect(verifyItem({ table: years, chartType: 'line', edit: [{ op: 'add', row: '2019', delta: 5 }], program: 'value(2019)', answer: '55' }).lint.map((f) => f.code)).not.toContain('share_sum');
    const groups = buildTable(`
      Age   | Likely | Not likely
      18-29 | 60%    | 40%
      30-49 | 55%    | 45%
    `);
    const halved = verifyItem({ table: groups, chartType: 'grouped_bar', edit: [{ op: 'scale', series: 'Likely', factor: 0.5 }], program: 'value("18-29", "Likely")', answer: '30' });
    expect(halved.lint.find((f) => f.code === 'stacked_row_sum')?.severity).toBe('error');
    const market = buildTable(`
      Company | Market share
      Altura  | 40%
      Norvik  | 35%
      Others  | 25%
    `);
    const grown = verifyItem({ table: market, chartType: 'vertical_bar', edit: [{ op: 'add', row: 'Altura', delta: 30 }], program: 'value("Altura")', answer: '70', title: 'Market share of phone makers' });
    expect(grown.lint.find((f) => f.code === 'implausible_value')?.message).toMatch(/more than the whole market/);
    const ratings = buildTable(`
      Criterion | Helion | Quanta
      Design    | 8.1    | 9.2
      Safety    | 7.5    | 6.9
    `);
    const past = verifyItem({ table: ratings, chartType: 'other', edit: [{ op: 'add', row: 'Design', series: 'Quanta', delta: 1.5 }], program: 'value("Design", "Quanta")', answer: '10.7', title: 'Ratings of phones by criterion' });
    expect(past.lint.find((f) => f.code === 'implausible_value')?.message).toMatch(/scale of 0–10/);
  });
});
