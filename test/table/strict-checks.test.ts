/**
 * The checks a strict reviewer's rejects call for, each on a real case: an item as it was
 * written (by the offline engine or a capable model) on a real ChartQA chart from
 * ../shared/data, or a table of that chart's shape where the real one lacks it. Each case must
 * give the named error, and a sound item on the same chart must give none — so a check that
 * fires on everything fails here too.
 */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTableCsv } from '../../server/import/csv-table';
import { biasFlags } from '../../shared/generation/bias-guards';
import type { ChartType } from '../../shared/domain/chart-types';
import type { DataTable } from '../../shared/table/model';
import { verifyItem } from '../../shared/table/verify';
import { totalColumns } from '../../shared/table/wholes';
import { CHARTQA_EXTRA, CHARTQA_SAMPLE, SHARED_DATA } from '../support/paths';
import { buildTable } from '../support/table-fixtures';

const real = (split: string, stem: string): DataTable => readTableCsv(resolve(split, 'tables', `${stem}.csv`));
const MORE = resolve(SHARED_DATA, 'chartqa-more');

interface Case {
  table: DataTable;
  chartType: ChartType;
  assumption: string;
  question: string;
  edit: unknown;
  program: string;
  title?: string;
}

function errors(c: Case): string[] {
  const verdict = verifyItem({ table: c.table, chartType: c.chartType, edit: c.edit, program: c.program, answer: '', assumption: c.assumption, question: `${c.assumption} ${c.question}`, title: c.title ?? '' });
  expect(verdict.error, JSON.stringify(verdict.error)).toBeNull();
  return verdict.lint.filter((finding) => finding.severity === 'error').map((finding) => finding.code);
}

function codes(c: Case): string[] {
  const verdict = verifyItem({ table: c.table, chartType: c.chartType, edit: c.edit, program: c.program, answer: '', assumption: c.assumption, question: `${c.assumption} ${c.question}`, title: c.title ?? '' });
  return verdict.lint.map((finding) => finding.code);
}

describe('an assumption that gives the answer away', () => {
  const cycling = buildTable(`
    Country | Share of respondents
    Spain | 41%
    Italy | 35%
    France | 31%
    Germany | 29%
  `);
  const base = { table: cycling, chartType: 'vertical_bar' as const, question: 'Which country would have the highest share of respondents?', program: 'argmax(series())' };

  it('rank_clause: "…, taking it above Spain" for "which is highest?"', () => {
    const edit = [{ op: 'add', row: 'Germany', delta: 16 }];
    expect(errors({ ...base, edit, assumption: 'Suppose the share of Germany were raised by 16 points, taking it above Spain.' })).toContain('rank_clause');
    expect(errors({ ...base, edit, assumption: 'Suppose the share of Germany were raised by 16 points, so that it overtakes Spain.' })).toContain('rank_clause');
    expect(errors({ ...base, edit, assumption: 'Suppose the share of Germany were raised by 16 points, making it the largest.' })).toContain('rank_clause');
    // The change alone: the reader must compare 45 with Spain's 41 on the chart.
    expect(errors({ ...base, edit, assumption: 'Suppose the share of Germany were raised by 16 points.' })).toEqual([]);
  });

  it('answer_from_assumption: two years set equal, then their difference asked (real: multi_col_60912)', () => {
    const tunisia = real(CHARTQA_SAMPLE, 'multi_col_60912');
    const c: Case = {
      table: tunisia,
      chartType: 'line',
      assumption: 'Suppose the value of 2019 for Female were the same as that of 2009 (5.27).',
      question: 'Can you identify how many points the female data would move from 2009 to 2019?',
      edit: [{ op: 'set', row: '2019', series: 'Female', value: 5.27 }],
      program: 'value("2019", "Female") - value("2009", "Female")',
    };
    expect(errors(c)).toContain('answer_from_assumption');
    // A change the reader must apply to what the chart shows is fine.
    expect(errors({ ...c, assumption: 'Suppose the female population in 2019 were 0.2 million higher.', edit: [{ op: 'add', row: '2019', series: 'Female', delta: 0.2 }] })).toEqual([]);
  });

  it('answer_from_assumption: two equal years, one raised by a stated amount, then their difference asked (real: two_col_3582)', () => {
    const uganda = real(CHARTQA_SAMPLE, 'two_col_3582');
    const c: Case = {
      table: uganda,
      chartType: 'line',
      assumption: 'Suppose the share of 2003 were increased by 2 percentage points.',
      question: 'What would be the difference between the unemployment rates in 2003 and 2009?',
      edit: [{ op: 'add', row: '2003', delta: 2 }],
      program: 'diff(value("2003"), value("2009"))',
    };
    expect(errors(c)).toContain('answer_from_assumption');
    // Two years apart on the chart: the reader must read both to apply the change.
    expect(errors({ ...c, question: 'What would be the difference between the unemployment rates in 2003 and 2002?', program: 'diff(value("2003"), value("2002"))' })).toEqual([]);
  });

  it('answer_from_assumption: every value scaled, then how many are exactly 70 (0 whatever the values; real: two_col_61211)', () => {
    const acsi = real(CHARTQA_SAMPLE, 'two_col_61211');
    const c: Case = {
      table: acsi,
      chartType: 'line',
      assumption: 'Suppose every value in the chart were increased by 10%.',
      question: 'For how many years would the value of the ACSI score be 70?',
      edit: [{ op: 'scale', factor: 1.1 }],
      program: 'count(where(series(), "==", 70))',
    };
    expect(errors(c)).toContain('answer_from_assumption');
    // One of the seven years at 70 raised: the reader still counts the other six on the chart.
    expect(errors({ ...c, assumption: 'Suppose the value of 2016 were increased by 2.', edit: [{ op: 'add', row: '2016', delta: 2 }] })).toEqual([]);
  });

  it('answer_from_assumption: a linear trend stated in the assumption, then a value on it asked (real: multi_col_20505)', () => {
    const hungary = real(CHARTQA_SAMPLE, 'multi_col_20505');
    const years = ['2012', '2013', '2014', '2015', '2016', '2017', '2018', '2019'];
    const edit = years.map((year, i) => ({ op: 'set', row: year, series: 'Total market', value: 33 + i }));
    const c: Case = {
      table: hungary,
      chartType: 'line',
      assumption: 'Suppose the Total market series had grown by a constant 1 every period after 2011 (starting from 32).',
      question: "How many companies would be in Hungary's insurance market in 2013?",
      edit,
      program: 'value("2013", "Total market")',
    };
    expect(errors(c)).toContain('answer_from_assumption');
    // The same trend with a question that also reads the domestic market needs the chart.
    expect(errors({ ...c, question: 'What would be the sum of maximum number of companies in domestic and total market?', program: 'sum(max(series("Domestic market")), max(series("Total market")))' })).not.toContain('answer_from_assumption');
  });

  it('answer_from_assumption: a stated step from the chart\'s own start, then a difference along it (the step alone answers; real: two_col_3582)', () => {
    const uganda = real(CHARTQA_SAMPLE, 'two_col_3582');
    // A model's item: the line redrawn from 1999's 2.56 % up by 0.05 a year, then 2003 against 2009.
    const years = uganda.rows.map((row) => row.label).filter((year) => Number(year) > 1999);
    const edit = years.map((year) => ({ op: 'set', row: year, value: Math.round((2.56 + 0.05 * (Number(year) - 1999)) * 100) / 100 }));
    const c: Case = {
      table: uganda,
      chartType: 'line',
      assumption: 'Suppose the unemployment rate had grown by a constant 0.05 percentage points every year after 1999, starting from its 1999 level.',
      question: 'What would be the difference between the unemployment rates in 2003 and 2009?',
      edit,
      program: 'diff(value("2003"), value("2009"))',
    };
    expect(errors(c)).toContain('answer_from_assumption');
    // A value on that line needs the chart's 1999 level: read, not given.
    expect(errors({ ...c, question: 'What would the unemployment rate be in 2009?', program: 'value("2009")' })).not.toContain('answer_from_assumption');
    // Values scaled and rounded one by one lie on no line: a difference of two still needs the chart.
    const scaled = uganda.rows.map((row) => ({ op: 'set', row: row.label, value: Math.round((row.values[0] ?? 0) * 110) / 100 }));
    expect(errors({ ...c, assumption: 'Suppose every rate were 10% higher.', edit: scaled })).not.toContain('answer_from_assumption');
  });

  it('answer_from_assumption: a swap written as two sets states no value, so it is not flagged', () => {
    const stores = buildTable(`
      Characteristic | Convenience store | Newsagent
      North West | 196 | 18
      Scotland | 120 | 25
    `);
    const c: Case = {
      table: stores,
      chartType: 'grouped_bar',
      assumption: 'Suppose the Convenience store and Newsagent values of North West were swapped.',
      question: "How many convenience stores would McColl's have in the North West?",
      edit: [
        { op: 'set', row: 'North West', series: 'Convenience store', value: 18 },
        { op: 'set', row: 'North West', series: 'Newsagent', value: 196 },
      ],
      program: 'value("North West", "Convenience store")',
    };
    expect(errors(c)).not.toContain('answer_from_assumption');
  });

  it('answer_from_assumption: a value swapped into a missing bar is no "smallest change" to probe (a model\'s item, refused for the wrong reason before)', () => {
    const secure = buildTable(`
      Entity                     | Very secure | Somewhat secure | Notvery secure
      Sending email              | 35          | 35              | 36
      Calling on your cell phone |             | 43              | 29
      Using a landline           | 16          | 51              | 19
    `);
    const c: Case = {
      table: secure,
      chartType: 'grouped_bar',
      assumption: 'Suppose Calling on your cell phone and Sending email exchanged their Very secure values.',
      question: 'Would the sum of Very secure and Somewhat secure for using a landline be greater than for calling on your cell phone?',
      edit: [{ op: 'swap', rows: ['Calling on your cell phone', 'Sending email'], series: 'Very secure' }],
      // The model's own program: the missing bar counts as nothing in the row's sum.
      program: 'value("Using a landline", "Very secure") + value("Using a landline", "Somewhat secure") > sum(row("Calling on your cell phone")) - value("Calling on your cell phone", "Notvery secure")',
    };
    expect(errors(c)).not.toContain('answer_from_assumption');
  });

  it('answer_from_assumption: a Yes/No that any change gives (two equal values, one moved)', () => {
    const equal = buildTable(`
      Country | Women in politics
      Angola | 25
      Azerbaijan | 25
      Cuba | 40
    `);
    const c: Case = {
      table: equal,
      chartType: 'vertical_bar',
      assumption: 'Suppose the value of Angola were increased by 5.',
      question: 'Would Angola and Azerbaijan have the same value?',
      edit: [{ op: 'add', row: 'Angola', delta: 5 }],
      program: 'value("Angola") == value("Azerbaijan")',
    };
    expect(errors(c)).toContain('answer_from_assumption');
    // Whether Angola passes Cuba depends on how much it grows: that is read from the chart.
    expect(errors({ ...c, assumption: 'Suppose the value of Angola were increased by 20.', edit: [{ op: 'add', row: 'Angola', delta: 20 }], question: 'Would Angola have a higher value than Cuba?', program: 'value("Angola") > value("Cuba")' })).toEqual([]);
  });

  it('answer_from_assumption: a Yes/No the edit gives whatever the chart\'s values (found in a strict read)', () => {
    // Vaccination shares cut by a quarter can never average above 90.
    const shares = buildTable(`
      Country | Share vaccinated
      Ghana | 88%
      Peru | 71%
      Nepal | 53%
    `);
    const cut: Case = { table: shares, chartType: 'vertical_bar', assumption: 'Suppose every share were cut by a quarter.', question: 'Would the average share be more than 90%?', edit: [{ op: 'scale', factor: 0.75 }], program: 'avg(series()) > 90' };
    expect(errors(cut)).toContain('answer_from_assumption');
    // With one of three bars removed, "the two smallest" are all of them and always outweigh the largest.
    const bars = buildTable(`
      Country | Litres per person
      Slovenia | 12.6
      Austria | 6.0
      Italy | 4.4
    `);
    const removed: Case = { table: bars, chartType: 'vertical_bar', assumption: 'Suppose Slovenia were left out of the chart.', question: 'Would the sum of the smallest two bars be greater than the largest bar?', edit: [{ op: 'remove_row', row: 'Slovenia' }], program: 'sum(min(series()), min(where(series(), ">", min(series())))) > max(series())' };
    expect(errors(removed)).toContain('answer_from_assumption');
    // A comparison the reader must make on the chart's values is not flagged.
    expect(errors({ ...removed, edit: [{ op: 'scale', row: 'Slovenia', factor: 0.8 }], assumption: 'Suppose Slovenia\'s consumption were a fifth lower.' })).not.toContain('answer_from_assumption');
  });

  it('added_row_answer: "Other" added as the leading supermarket chain (real: multi_col_80420)', () => {
    const spain = real(CHARTQA_EXTRA, 'multi_col_80420');
    const transposed = buildTable(`
      Chain | Share
      Mercadona | 25.3%
      Carrefour | 9%
      Lidl | 5.8%
    `);
    expect(spain.series).toContain('Mercadona');
    const c: Case = {
      table: transposed,
      chartType: 'horizontal_bar',
      assumption: 'Suppose a new chain, "Aldi", were added with a share of 30%.',
      question: 'Which supermarket chain would be the favorite of the largest part of the Spanish population?',
      edit: [{ op: 'add_row', row: 'Aldi', values: 30 }],
      program: 'argmax(series())',
    };
    expect(errors(c)).toContain('added_row_answer');
  });
});

describe('wholes decided from the data, not the chart type', () => {
  it('stacked_row_sum: GDP sector shares on a chart typed line no longer sum to 100', () => {
    const sectors = buildTable(`
      Year | Agriculture | Industry | Services
      2017 | 10.5% | 30.2% | 59.3%
      2018 | 10.1% | 30.0% | 59.9%
      2019 | 9.8% | 29.6% | 60.6%
    `);
    const c: Case = { table: sectors, chartType: 'line', assumption: 'Suppose industry had grown by 18 points in 2019.', question: 'What would be the share of industry in 2019?', edit: [{ op: 'add', row: '2019', series: 'Industry', delta: 18 }], program: 'value("2019", "Industry")' };
    expect(errors(c)).toContain('stacked_row_sum');
    const balanced = [{ op: 'add', row: '2019', series: 'Industry', delta: 1 }, { op: 'add', row: '2019', series: 'Services', delta: -1 }];
    expect(errors({ ...c, assumption: 'Suppose 1 point of 2019 moved from services to industry.', edit: balanced })).toEqual([]);
  });

  it('stacked_row_sum and part_exceeds_whole: a Pew row of answers (no % signs) halved, or pushed past 100', () => {
    const pew = buildTable(`
      Group | Favorable | Unfavorable
      Total | 45 | 50
      Men | 42 | 53
      Women | 48 | 47
    `);
    const c: Case = { table: pew, chartType: 'grouped_bar', assumption: 'Suppose the shares of men were halved.', question: 'What would be the favorable share among men?', edit: [{ op: 'scale', row: 'Men', factor: 0.5 }], program: 'value("Men", "Favorable")' };
    expect(errors(c)).toContain('stacked_row_sum');
    expect(errors({ ...c, assumption: 'Suppose the favorable share among men rose by 20 points.', edit: [{ op: 'add', row: 'Men', series: 'Favorable', delta: 20 }] })).toContain('part_exceeds_whole');
  });

  it('part_exceeds_whole: the domestic market made larger than the total market (real: multi_col_20505)', () => {
    const hungary = real(CHARTQA_SAMPLE, 'multi_col_20505');
    const c: Case = { table: hungary, chartType: 'line', assumption: 'Suppose the value of 2015 for Domestic market were doubled.', question: 'What would be the highest number of companies in the domestic market?', edit: [{ op: 'scale', row: '2015', series: 'Domestic market', factor: 2 }], program: 'max(series("Domestic market"))' };
    expect(errors(c)).toContain('part_exceeds_whole');
    expect(errors({ ...c, assumption: 'Suppose the domestic market had 2 more companies in 2015.', edit: [{ op: 'add', row: '2015', series: 'Domestic market', delta: 2 }] })).toEqual([]);
  });

  it('total_stale: a NET column left as it was when one of its parts changed', () => {
    const net = buildTable(`
      Country | Very | Somewhat | NET Favorable
      France | 20 | 35 | 55
      Germany | 18 | 30 | 48
      Italy | 25 | 31 | 56
    `);
    const c: Case = { table: net, chartType: 'grouped_bar', assumption: 'Suppose 10 more points of Germans were very favorable.', question: 'What would be the very favorable share in Germany?', edit: [{ op: 'add', row: 'Germany', series: 'Very', delta: 10 }], program: 'value("Germany", "Very")' };
    expect(errors(c)).toContain('total_stale');
    expect(errors({ ...c, edit: [{ op: 'add', row: 'Germany', series: 'Very', delta: 10 }, { op: 'add', row: 'Germany', series: 'NET Favorable', delta: 10 }] })).toEqual([]);
  });
});

describe('a combined rate moves with its parts', () => {
  it('total_stale: two age groups swap their men\'s values and "Both sexes" no longer lies between women and men (real: multi_col_100907, found in a strict read)', () => {
    const c: Case = {
      table: real(MORE, 'multi_col_100907'),
      chartType: 'grouped_bar',
      assumption: 'Suppose 45 to 54 and 55 to 64 swapped their Men values.',
      question: 'What would be the percentage value of 45 to 54 years old men that have at least an upper secondary education?',
      edit: [{ op: 'swap', rows: ['45 to 54', '55 to 64'], series: 'Men' }],
      program: 'value("45 to 54", "Men")',
    };
    expect(errors(c)).toContain('total_stale');
    // Both sexes moved with the men's values, as a reader expects: it stands.
    const withBoth: Case = {
      ...c,
      edit: [
        { op: 'swap', rows: ['45 to 54', '55 to 64'], series: 'Men' },
        { op: 'set', row: '45 to 54', series: 'Both sexes', value: 89.5 },
        { op: 'set', row: '55 to 64', series: 'Both sexes', value: 90 },
      ],
    };
    expect(errors(withBoth)).not.toContain('total_stale');
    // Men's 91% halved with Both sexes still 92%: between the parts still, but standing still while they moved.
    expect(errors({ ...c, assumption: 'Suppose the share of 45 to 54 for Men were halved.', edit: [{ op: 'scale', row: '45 to 54', series: 'Men', factor: 0.5 }] })).toContain('total_stale');
    // Three points moved from women to men leave the combined rate where it was.
    expect(errors({ ...c, edit: [{ op: 'add', row: '45 to 54', series: 'Men', delta: 2 }, { op: 'add', row: '45 to 54', series: 'Women', delta: -2 }] })).not.toContain('total_stale');
  });
});

describe('an average row moves with its categories', () => {
  it('total_stale (warning): a sector\'s salary raised while "average all categories" stays (real: two_col_5263, found in a strict read)', () => {
    const c: Case = {
      table: real(CHARTQA_EXTRA, 'two_col_5263'),
      chartType: 'horizontal_bar',
      assumption: 'Suppose the value of Financial services activities were increased by 10000.',
      question: 'What would be the median annual gross salary in the financial services activities sector in 2020?',
      edit: [{ op: 'add', row: 'Financial services activities', delta: 10000 }],
      program: 'value("Financial services activities")',
    };
    expect(codes(c)).toContain('total_stale');
    // The average moved with it: nothing to say.
    expect(codes({ ...c, edit: [{ op: 'add', row: 'Financial services activities', delta: 10000 }, { op: 'add', row: 'Financial & insurance average all categories', delta: 3000 }] })).not.toContain('total_stale');
  });
});

describe('a NET column counts its parts', () => {
  it('total_stale: a part removed from the legend leaves its NET counting it', () => {
    const net = buildTable(`
      Group | Very likely | Somewhat likely | NET Likely | Not likely
      Rep | 20 | 30 | 50 | 48
      Dem | 25 | 28 | 53 | 45
      All | 22 | 29 | 51 | 47
    `);
    const c: Case = { table: net, chartType: 'grouped_bar', assumption: 'Suppose "Very likely" were removed from the legend.', question: 'How many colors would be shown?', edit: [{ op: 'remove_series', series: 'Very likely' }], program: 'count(series_names())' };
    expect(errors(c)).toContain('total_stale');
    expect(errors({ ...c, edit: [{ op: 'remove_series', series: 'Not likely' }] })).not.toContain('total_stale');
  });
});

describe('a total is told from a coincidence by the precision its cells are printed to', () => {
  it('Mercadona is no total: three other chains\' shares come within 0.4 of it in each period, not within their rounding (real: multi_col_80420)', () => {
    const spain = real(CHARTQA_EXTRA, 'multi_col_80420');
    expect(totalColumns(spain)).toEqual([]);
    // The edit the Stage-2 model wrote for it (11 points from Mercadona to Regional supermarkets in every period): a total_stale was claimed.
    const edit = spain.rows.flatMap((row) => [
      { op: 'add' as const, row: row.label, series: 'Mercadona', delta: -11 },
      { op: 'add' as const, row: row.label, series: 'Regional supermarkets', delta: 11 },
    ]);
    const c: Case = { table: spain, chartType: 'stacked_bar', assumption: 'Suppose 11 points of Mercadona\'s share had gone to regional supermarkets in every period.', question: 'Which chain would be the second most popular in every period?', edit, program: 'argmax(series("Regional supermarkets"))' };
    expect(errors(c)).not.toContain('total_stale');
  });

  it('a NET of whole numbers rounded on its own is still one (31 + 22 printed as 54)', () => {
    const net = buildTable(`
      Country | Very | Somewhat | NET Favorable
      France | 31 | 22 | 54
      Germany | 18 | 30 | 47
      Italy | 25 | 31 | 56
    `);
    expect(totalColumns(net)).toEqual([{ total: 2, parts: [0, 1] }]);
    // Printed to a tenth, the same closeness is a coincidence: 12.4 + 9.0 + 3.6 = 25.0 is not 25.3.
    const tenths = buildTable(`
      Period | Leader | Second | Third | Fourth
      Spring | 25.3 | 12.4 | 9.0 | 3.6
      Summer | 24.7 | 14.4 | 7.3 | 3.4
      Autumn | 24.2 | 12.6 | 8.2 | 3.3
    `);
    expect(totalColumns(tenths)).toEqual([]);
    expect(totalColumns(buildTable(`
      Period | Leader | Second | Third | Fourth
      Spring | 25.0 | 12.4 | 9.0 | 3.6
      Summer | 25.1 | 14.4 | 7.3 | 3.4
      Autumn | 24.1 | 12.6 | 8.2 | 3.3
    `))).toEqual([{ total: 0, parts: [1, 2, 3] }]);
  });
});

describe('shares of an extracted table, whose units stand apart from the numbers', () => {
  it('share_sum: every party\'s 2019 vote share halved, on the table as a vision model reads it ("8.7", unit "%") as on the CSV ("8.7%") (real: multi_col_40878)', () => {
    const csv = real(CHARTQA_EXTRA, 'multi_col_40878');
    const extracted: DataTable = { ...csv, units: csv.series.map(() => '%'), rows: csv.rows.map((row) => ({ ...row, raw: row.raw.map((cell) => cell.replace(/%$/, '')) })) };
    const c: Case = {
      table: extracted,
      chartType: 'grouped_bar',
      assumption: "Suppose every party's 2019 vote share were halved while the 2015 shares stayed the same.",
      question: 'What percentage of votes would Dansk Folkeparti have received in 2019?',
      edit: [{ op: 'scale', series: '2019', factor: 0.5 }],
      program: "value('Dansk Folkeparti', '2019')",
    };
    expect(errors(c)).toContain('share_sum');
    expect(errors({ ...c, table: csv })).toContain('share_sum');
  });
});

describe('counts stay whole', () => {
  it('count_not_integer: "Number of companies" scaled to 180.5', () => {
    const companies = buildTable(`
      Year | Number of companies
      2018 | 121
      2019 | 127
      2020 | 131
    `);
    const c: Case = { table: companies, chartType: 'line', assumption: 'Suppose the number of companies in 2019 were 1.5 times as high.', question: 'How many companies would there be in 2019?', edit: [{ op: 'scale', row: '2019', factor: 1.5 }], program: 'value("2019")' };
    expect(errors(c)).toContain('count_not_integer');
    expect(errors({ ...c, assumption: 'Suppose there were 2 more companies in 2019.', edit: [{ op: 'add', row: '2019', delta: 2 }] })).toEqual([]);
  });

  it('count_not_integer: a "how many" question makes a generic column a count (23.25 rigs)', () => {
    const rigs = buildTable(`
      Year | Value
      2018 | 31
      2019 | 27
      2020 | 18
    `);
    const c: Case = { table: rigs, chartType: 'vertical_bar', assumption: 'Suppose the 2019 value were cut by a seventh.', question: 'How many rigs would have been in operation in 2019?', edit: [{ op: 'scale', row: '2019', factor: 0.8611 }], program: 'value("2019")' };
    expect(errors(c)).toContain('count_not_integer');
    // "How many quadrillion British thermal units" asks a quantity, not a count.
    expect(errors({ ...c, question: 'How many quadrillion British thermal units would have been used in 2019?' })).not.toContain('count_not_integer');
  });
});

describe('the program computes what the question asks', () => {
  it('reads_other_label: the Technical series for a question on senior level (real: multi_col_60508)', () => {
    const facebook = real(CHARTQA_EXTRA, 'multi_col_60508');
    // Five points of leadership move from White to Asian: the Hispanic row keeps its 4.3 %.
    const edit = [{ op: 'add', row: 'White', series: 'Leadership', delta: -5 }, { op: 'add', row: 'Asian', series: 'Leadership', delta: 5 }];
    const c: Case = { table: facebook, chartType: 'grouped_bar', assumption: 'Suppose 5 points of leadership moved from White to Asian employees.', question: 'What ethnicity would be 4.3 percent of Facebook senior level employees?', edit, program: 'argmax(where(series("Technical"), "==", 4.3))' };
    // The question names no series of the three: a warning, and the offline rules refuse it.
    expect(codes(c)).toContain('reads_other_label');
    expect(errors(c)).not.toContain('reads_other_label');
    // Naming one series and reading another is an error.
    const leadership = 'What ethnicity would be 4.3 percent of Facebook leadership employees?';
    expect(errors({ ...c, question: leadership })).toContain('reads_other_label');
    expect(codes({ ...c, question: leadership, program: 'argmax(where(series("Leadership"), "==", 4.3))' })).not.toContain('reads_other_label');
  });

  it('reads_other_label: a row the question does not name (real: multi_col_20505)', () => {
    const hungary = real(CHARTQA_SAMPLE, 'multi_col_20505');
    const c: Case = { table: hungary, chartType: 'line', assumption: 'Suppose the total market had 3 more companies in every year.', question: "How many companies would be in Hungary's insurance market in 2013?", edit: [{ op: 'add', series: 'Total market', delta: 3 }], program: 'value("2014", "Total market")' };
    expect(errors(c)).toContain('reads_other_label');
    expect(errors({ ...c, program: 'value("2013", "Total market")' })).toEqual([]);
  });

  it('single_period: one year read for a question across the years (real layout: years as series)', () => {
    const owid = real(MORE, '15979830001410');
    const c: Case = {
      table: owid,
      chartType: 'grouped_bar',
      assumption: 'Suppose the GDP per person employed of Nepal were 2,000 higher in 2012.',
      question: 'Which country would have the highest GDP per person employed over the years?',
      edit: [{ op: 'add', row: 'Nepal', series: '2012', delta: 2000 }],
      program: 'argmax(series("2012"))',
    };
    expect(errors(c)).toContain('single_period');
    // In one year, one year's column is the question.
    expect(errors({ ...c, question: 'Which country would have the highest GDP per person employed in the year 2012?' })).not.toContain('single_period');
  });
});

describe('plausible premises', () => {
  it('implausible_change: 1950 set to 2020 levels, a bar cut by 85 %; halving and doubling pass', () => {
    const mortgages = buildTable(`
      Year | Mortgage debt in billion U.S. dollars
      1950 | 45
      1970 | 280
      1990 | 2500
      2020 | 16000
    `);
    const c: Case = { table: mortgages, chartType: 'line', assumption: 'Suppose the mortgage debt in 1950 had been as high as in 2020.', question: 'What would be the mortgage debt in 1950?', edit: [{ op: 'set', row: '1950', value: 16000 }], program: 'value("1950")' };
    expect(errors(c)).toContain('implausible_change');
    expect(errors({ ...c, assumption: 'Suppose the 1990 debt were cut by 85%.', edit: [{ op: 'scale', row: '1990', factor: 0.15 }], question: 'What would be the mortgage debt in 1990?', program: 'value("1990")' })).toContain('implausible_change');
    expect(errors({ ...c, assumption: 'Suppose the 1990 debt were halved.', edit: [{ op: 'scale', row: '1990', factor: 0.5 }], question: 'What would be the mortgage debt in 1990?', program: 'value("1990")' })).toEqual([]);
  });

  it('a swap of two categories only relabels them and is plausible; a swap of 1985 and 2020 is judged', () => {
    const pie = buildTable(`
      Response | Share of respondents
      Yes | 60%
      No | 35%
      I don't know | 5%
    `);
    const c: Case = { table: pie, chartType: 'pie', assumption: 'Suppose the shares of "No" and "I don\'t know" were swapped.', question: 'What share of respondents would say No?', edit: [{ op: 'swap', rows: ['No', "I don't know"] }], program: 'value("No")' };
    expect(errors(c)).toEqual([]);
    // Asked which answer leads, with the leader swapped: the answer is its swap partner, which memory gives.
    expect(errors({ ...c, assumption: 'Suppose the shares of "Yes" and "I don\'t know" were swapped.', question: 'Which answer would dominate the pie chart?', edit: [{ op: 'swap', rows: ['Yes', "I don't know"] }], program: 'argmax(series())' })).toEqual(['answer_from_assumption']);
    const exports = buildTable(`
      Year | Export volume in billion U.S. dollars
      1985 | 3.86
      2000 | 16.2
      2020 | 124.65
    `);
    expect(errors({ ...c, table: exports, chartType: 'line', assumption: 'Suppose the values of 1985 and 2020 were swapped.', question: 'What would be the value of U.S. exports to China in 1985?', edit: [{ op: 'swap', rows: ['1985', '2020'] }], program: 'value("1985")' })).toContain('implausible_change');
  });

  it('a part moved while its whole stands still is flagged for reviewers (Hungary: domestic insurers 23 -> 16, the market still 28); moved together, it is not', () => {
    const hungary = real(CHARTQA_SAMPLE, 'multi_col_20505');
    const c: Case = { table: hungary, chartType: 'grouped_bar', assumption: 'Suppose the domestic market had 7 fewer companies in 2019.', question: 'How many companies would be in the domestic market in 2019?', edit: [{ op: 'add', row: '2019', series: 'Domestic market', delta: -7 }], program: 'value("2019", "Domestic market")' };
    expect(codes(c)).toContain('total_stale');
    expect(errors(c)).not.toContain('total_stale');
    const together = { ...c, assumption: 'Suppose 3 fewer domestic companies were in the market in 2019.', edit: [{ op: 'add' as const, row: '2019', series: 'Domestic market', delta: -3 }, { op: 'add' as const, row: '2019', series: 'Total market', delta: -3 }] };
    expect(codes(together)).not.toContain('total_stale');
  });

  it('two periods trading values rewrite history, neighbours or ends, rows or columns: Africa\'s 2018 and 2019 internet shares, 1999 and 2020', () => {
    const internet = real(CHARTQA_SAMPLE, 'multi_col_441');
    const c: Case = { table: internet, chartType: 'line', assumption: 'Suppose the Africa values of 2018 and 2019 were swapped.', question: 'What would the internet penetration rate in Africa be in 2019?', edit: [{ op: 'swap', rows: ['2018', '2019'], series: 'Africa' }], program: 'value("2019", "Africa")' };
    expect(errors(c)).toContain('implausible_change');
    const wide = buildTable(`
      Country | 2010 | 2011 | 2012 | 2013
      Estonia | 14.1 | 14.5 | 15.0 | 15.2
      Costa Rica | 9.9 | 10.1 | 10.4 | 10.6
    `);
    expect(errors({ ...c, table: wide, assumption: 'Suppose the 2012 and 2013 values of Estonia were swapped.', question: 'What would Estonia\'s value be in 2013?', edit: [{ op: 'set', row: 'Estonia', series: '2012', value: 15.2 }, { op: 'set', row: 'Estonia', series: '2013', value: 15.0 }], program: 'value("Estonia", "2013")' })).toContain('implausible_change');
  });

  it('two segments of one period trading shares rewrite both series\' history (Western Digital 32.7% ↔ Hitachi 2.4% in 2017); a 10-point move passes', () => {
    const drives = real(CHARTQA_SAMPLE, 'multi_col_20086');
    const c: Case = {
      table: drives,
      chartType: 'stacked_bar',
      assumption: 'Suppose the Western Digital and Hitachi shares of 2017 were swapped.',
      question: 'In what year would Western Digital dominate the disk and optical drive market?',
      edit: [
        { op: 'set', row: '2017', series: 'Western Digital', value: 2.4 },
        { op: 'set', row: '2017', series: 'Hitachi', value: 32.7 },
      ],
      program: 'argmax(series("Western Digital"))',
    };
    expect(errors(c)).toContain('implausible_change');
    // Two periods have a single step, so it says nothing of how far a share may move: a third of Western Digital's share going to Seagate is a premise a reader accepts.
    const moved: Case = {
      ...c,
      assumption: 'Suppose 10 points of Western Digital\'s share in Q1 2018 had gone to Seagate.',
      question: 'Who would lead the disk and optical drive market in the first quarter of 2018?',
      edit: [
        { op: 'add', row: 'Q1 2018', series: 'Western Digital', delta: -10 },
        { op: 'add', row: 'Q1 2018', series: 'Seagate', delta: 10 },
      ],
      program: 'argmax(row("Q1 2018"))',
    };
    expect(errors(moved)).not.toContain('implausible_change');
  });

  it('implausible_change: a new year back at the split of ten years before, after a steady fall (real: multi_col_36, found in a strict read)', () => {
    const c: Case = {
      table: real(MORE, 'multi_col_36'),
      chartType: 'stacked_bar',
      assumption: 'Suppose a new year, "2021", were added with the same split as 2010.',
      question: 'In how many years would the percentage of workforce in the Agriculture sector exceed 45%?',
      edit: [{ op: 'add_row', row: '2021', values: { Agriculture: 51.52, Industry: 21.81, Services: 26.68 } }],
      program: 'count(where(series("Agriculture"), ">", 45))',
    };
    expect(errors(c)).toContain('implausible_change');
    // The last year's change carried on (41.49 − 0.9; the other two sectors take it) is a year a reader accepts.
    const continued: Case = { ...c, assumption: 'Suppose a new year, "2021", continued the last change.', edit: [{ op: 'add_row', row: '2021', values: { Agriculture: 40.59, Industry: 26.78, Services: 32.63 } }] };
    expect(errors(continued)).not.toContain('implausible_change');
  });
});

describe('the bias guard compares as the verifier does', () => {
  it('a year answer is a label: 2018 is not "within 5%" of 2019', () => {
    const years = buildTable(`
      Year | Stores
      2018 | 40
      2019 | 47
    `);
    expect(biasFlags({ affectsAnswer: true, answer: '2018', factualLabel: '2019', recomputedAnswer: '2018', tables: [years] })).toEqual([]);
    expect(biasFlags({ affectsAnswer: true, answer: '2019', factualLabel: '2019*', recomputedAnswer: '2019', tables: [years] })).toEqual(['unchanged_answer']);
    // Plain numbers keep the relaxed rule.
    expect(biasFlags({ affectsAnswer: true, answer: '48', factualLabel: '47', recomputedAnswer: '48', tables: [years] })).toEqual(['unchanged_answer']);
  });
});
