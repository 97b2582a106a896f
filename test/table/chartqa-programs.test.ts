/**
 * Is the program language expressive enough for real chart questions? Each case below is a
 * factual ChartQA question from ../shared/data/chartqa-sample with a program written for it;
 * the program runs on the chart's table (read as the importer reads it) and must match the
 * ChartQA label under relaxed correctness. The query and label are looked up in the JSON, so
 * the list cannot drift from the data.
 *
 * Sample questions the language cannot express, and why:
 *
 *   Visual references that the table does not hold (colours, legend, positions):
 *   - 3398 "What is the average of the smallest gray bar and largest light blue bar?" (21.5):
 *     colours; and no pair of columns of this noisy Pew extraction gives 43, so it cannot
 *     even be resolved by hand.
 *   - 1304 "How many colors are used to represent the bar graph?" (4): the legend is not in
 *     the table, whose garbled header has 6 columns.
 *   - 1304 "What's the median value of light blue bar?" (37): colour, and no column of the
 *     extracted table has median 37.
 *   - 10476815004500 "Which country represents in red line ?" (Benin): colour only.
 *   - multi_col_803 "Which year the value of red bar is high ?" (2020): colour; which series
 *     is red is unknown without the image.
 *   - multi_col_60912 "Can you identified the blue line chart data belongs to what?" (Female):
 *     colour only.
 *   Five more colour/position questions become expressible once a person names the row or
 *   series the colour stands for; they are in VISUAL_RESOLVED below, kept apart.
 *
 *   Answers that are several values: a program answers with one value.
 *   - two_col_3582 "What 2 years did the unemployment rate reach its peak?" ([2003,2009]).
 *   - two_col_24282 "Which countries has time limit of 50 days?" ([Thailand, South Korea]).
 *
 *   Labels that disagree with the table (the program is easy; the ChartQA label is off):
 *   - two_col_2886 "Who is the all time leader in goals scored …?" (Eden Hazard): the table's
 *     leader is Romelu Lukaku (57 goals vs 32).
 *   - two_col_434 "What was the number of arrests in 1990?" (14005615): that is 2008's value;
 *     1990 holds 14195100, which only passes through the 5% tolerance — left out.
 *   - two_col_22355 "What is the expected increase in income from corporation tax in the
 *     2021/22 financial year?" and "What is the proposed change in the corporation tax
 *     rate?" (48.8): 48.8 is the 2022/23 level, not an increase, and the table has no rate.
 *   - multi_col_441 "What was the internet penetration rate in Africa in 2012?" (9.9): the
 *     table has 14.2% for 2012 (9.9% is 2010).
 *
 * The programs also show what the language needed beyond the issue's list: where() for
 * "how many … are 70" / "which … has 16%" / "second largest", element-wise list arithmetic
 * for "in which year are A and B equal", and series() without a name on single-series tables.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readTableCsv } from '../../server/import/csv-table';
import { relaxedCorrect } from '../../shared/table/answers';
import { runProgram } from '../../shared/table/program';

const SAMPLE = fileURLToPath(new URL('../../../shared/data/chartqa-sample/', import.meta.url));

const QaFileSchema = z.array(z.object({ imgname: z.string(), query: z.string(), label: z.string() }));

type Kind = 'lookup' | 'difference' | 'ratio' | 'average' | 'median' | 'count' | 'argmax' | 'comparison' | 'sum' | 'max';

interface Case {
  file: 'test_human.json' | 'test_augmented.json';
  imgname: string;
  query: string;
  program: string;
  kind: Kind;
}

const H = 'test_human.json';
const A = 'test_augmented.json';

const CASES: Case[] = [
  { file: H, imgname: '01499440003158.png', query: 'What is the value of Slovenia in the graph?', program: 'value("Slovenia")', kind: 'lookup' },
  {
    file: H,
    imgname: '14354115005935.png',
    query: 'Is the average of two extreme values greater than the middle bar value?',
    // The bars are sorted, so the middle bar is the median.
    program: 'avg(max(series()), min(series())) > median(series())',
    kind: 'comparison',
  },
  { file: H, imgname: '5593.png', query: 'What is the value of "Increase"?', program: 'value("Increase")', kind: 'lookup' },
  { file: H, imgname: '5593.png', query: 'Is the Decrease value is two times the value of Increase?', program: 'value("Decrease") == 2 * value("Increase")', kind: 'comparison' },
  {
    file: H,
    imgname: '10476815004500.png',
    query: 'Which country data below 80% for the last five years ?',
    program: 'if(max(row("Albania")) < 80, "Albania", if(max(row("Benin")) < 80, "Benin", if(max(row("Sudan")) < 80, "Sudan", "none")))',
    kind: 'comparison',
  },
  { file: H, imgname: 'OECD_WOMEN_IN_POLITICS_AGO_AZE_CUB_ECU_THA_000002.png', query: 'What does the largest bar represent?', program: 'argmax(series())', kind: 'argmax' },
  {
    file: H,
    imgname: 'OECD_WOMEN_IN_POLITICS_AGO_AZE_CUB_ECU_THA_000002.png',
    query: 'What is the difference in all the bar and the largest bar?',
    program: 'diff(max(series()), min(series()))',
    kind: 'difference',
  },
  { file: H, imgname: 'OECD_GROSS_DIRECT_INSURANCE_PREMIUMS_AUS_CHL_ISR_PRT_URY_000090.png', query: 'How many color bars are shown in the graph?', program: 'count(rows())', kind: 'count' },
  {
    file: H,
    imgname: 'OECD_GROSS_DIRECT_INSURANCE_PREMIUMS_AUS_CHL_ISR_PRT_URY_000090.png',
    query: 'In which year does the Israel and Australia intersect?',
    // The table samples every other year: the crossing is read as the year the lines come closest.
    program: 'argmin(abs(row("Israel") - row("Australia")))',
    kind: 'argmax',
  },
  { file: H, imgname: 'two_col_158.png', query: 'What is the name of the company have highest tire-related revenue ?', program: 'argmax(series())', kind: 'argmax' },
  {
    file: H,
    imgname: 'two_col_158.png',
    query: 'What is the difference between Bridgestone and continental revenue ?',
    program: 'diff(value("Bridgestone (Japan)"), value("continental (germany)"))',
    kind: 'difference',
  },
  { file: H, imgname: 'two_col_61211.png', query: 'In which year is the ACSI score is lowest?', program: 'argmin(series())', kind: 'argmax' },
  { file: H, imgname: 'two_col_61211.png', query: 'For how many years the value of the ACSI score is 70?', program: 'count(where(series(), "==", 70))', kind: 'count' },
  { file: H, imgname: 'two_col_62073.png', query: 'What is the number of students in 2016/17?', program: 'value("2016/17")', kind: 'lookup' },
  { file: H, imgname: 'two_col_62073.png', query: 'How many blue bars exceed 520000 values?', program: 'count(where(series(), ">", 520000))', kind: 'count' },
  { file: H, imgname: 'two_col_101579.png', query: 'How many topics are 3% popular?', program: 'count(where(series(), "==", 3))', kind: 'count' },
  { file: H, imgname: 'two_col_101579.png', query: 'What is the ratio of craft to comedy?', program: 'ratio(value("Crafts"), value("Comedy"))', kind: 'ratio' },
  { file: H, imgname: 'two_col_3582.png', query: 'What was the difference between the unemployment rates in 2003 and 2009?', program: 'diff(value(2003), value(2009))', kind: 'difference' },
  { file: H, imgname: 'two_col_24282.png', query: 'How many countries have been taken into consideration?', program: 'count(rows())', kind: 'count' },
  {
    file: H,
    imgname: 'multi_col_803.png',
    query: 'which year there is same number of stores in Western Europe and North America ?',
    program: 'argmax(where(diff(series("Western Europe"), series("North America")), "==", 0))',
    kind: 'comparison',
  },
  {
    file: H,
    imgname: 'multi_col_20436.png',
    query: 'What is the percentage share of online sales of jewelry, watches, and accessories retail sector in Germany in 2018?',
    program: 'value(2018, "Online sales")',
    kind: 'lookup',
  },
  {
    file: H,
    imgname: 'multi_col_20436.png',
    query: 'What is the average percentage share from 2013 to 2018 in offline sales of jewelry, watches, and accessories retail sector in Germany?',
    program: 'avg(series("Offline sales"))',
    kind: 'average',
  },
  { file: H, imgname: 'multi_col_20505.png', query: 'What is the highest number of companies in the domestic market?', program: 'max(series("Domestic market"))', kind: 'max' },
  {
    file: H,
    imgname: 'multi_col_20505.png',
    query: 'What is the sum of maximum number of companies in domestic and total market?',
    program: 'max(series("Domestic market")) + max(series("Total market"))',
    kind: 'sum',
  },
  {
    file: H,
    imgname: 'multi_col_60912.png',
    query: 'Can you identify how many points the female data moved from 2009 to 2019?',
    program: 'diff(value(2019, "Female"), value(2009, "Female"))',
    kind: 'difference',
  },
  { file: H, imgname: 'two_col_104308.png', query: 'Which option has 16%?', program: 'argmax(where(series(), "==", 16))', kind: 'argmax' },
  {
    file: H,
    imgname: 'two_col_104308.png',
    query: 'Which option has a difference of 5%, compared with yes?',
    program: 'argmax(where(diff(series(), value("Yes")), "==", 5))',
    kind: 'argmax',
  },
  { file: A, imgname: 'multi_col_803.png', query: 'How many stores did Saint Laurent operate in Western Europe in 2020?', program: 'value(2020, "Western Europe")', kind: 'lookup' },
  {
    file: A,
    imgname: 'multi_col_20436.png',
    query: 'In what year did online sales make up 6.8 percent of retail sales of jewelry, watches and accessories in Germany?',
    program: 'argmax(where(series("Online sales"), "==", 6.8))',
    kind: 'argmax',
  },
  {
    file: A,
    imgname: 'multi_col_20436.png',
    query: 'What percentage of the retail sales of jewelry, watches and accessories in Germany were online in 2013?',
    program: 'value(2013, "Online sales")',
    kind: 'lookup',
  },
  {
    file: A,
    imgname: 'multi_col_20436.png',
    query: 'What is the predicted increase in online sales of jewelry, watches and accessories in Germany by 2018?',
    program: 'value("2018*", "online sales")',
    kind: 'lookup',
  },
  { file: A, imgname: 'multi_col_20505.png', query: "How many companies were in Hungary's insurance market in 2013?", program: 'value(2013, "Total market")', kind: 'lookup' },
  { file: A, imgname: 'multi_col_20505.png', query: "How many companies were in Hungary's insurance market in 2019?", program: 'value(2019, "Domestic market")', kind: 'lookup' },
  { file: A, imgname: 'two_col_101579.png', query: 'What category accounted for five percent of top 100 pins in 2018?', program: 'argmax(where(series(), "==", 5))', kind: 'argmax' },
  { file: A, imgname: 'two_col_24282.png', query: 'How many minutes did smartphone users in Japan spend on the internet every day?', program: 'value("Japan")', kind: 'lookup' },
  { file: A, imgname: 'two_col_61211.png', query: 'What was the American Customer Satisfaction Index score of Wyndham hotels in 2020?', program: 'value(2020)', kind: 'lookup' },
  { file: A, imgname: 'two_col_61211.png', query: "What was Wyndham's American Customer Satisfaction Index score in 2016?", program: 'value("2016")', kind: 'lookup' },
  { file: A, imgname: 'two_col_158.png', query: 'How much money did Bridgestone Corporation generate from its tire business in 2019?', program: 'value("Bridgestone (Japan)")', kind: 'lookup' },
  { file: A, imgname: 'two_col_3582.png', query: 'What was the unemployment rate in Uganda in 2020?', program: 'value(2020)', kind: 'lookup' },
  { file: A, imgname: 'two_col_62073.png', query: 'How many students were enrolled in universities in Kenya in 2019/20?', program: 'value("2019/20")', kind: 'lookup' },
  { file: A, imgname: 'two_col_62073.png', query: 'How many students were enrolled in Kenyan universities in 2018/19?', program: 'value("2018/19")', kind: 'lookup' },
  { file: A, imgname: 'multi_col_60912.png', query: 'What was the male population of Tunisia in 2019?', program: 'value(2019, "Male")', kind: 'lookup' },
  { file: A, imgname: 'multi_col_60912.png', query: 'What was the female population of Tunisia in 2019?', program: 'value(2019, "Female")', kind: 'lookup' },
  { file: A, imgname: 'two_col_42348.png', query: 'Who was the most valuable player at the 2018 FIFA World Cup?', program: 'argmax(series())', kind: 'argmax' },
  { file: A, imgname: 'two_col_42348.png', query: "What was Harry Kane's market value?", program: 'value("Harry Kane")', kind: 'lookup' },
  { file: A, imgname: 'two_col_62467.png', query: 'In what year did the number of reports for cannabis-related crimes peak?', program: 'argmax(series())', kind: 'argmax' },
  {
    file: A,
    imgname: 'two_col_62467.png',
    query: 'What was the highest number of cannabis-related crimes reported in Italy between 2010 and 2019?',
    program: 'max(series())',
    kind: 'max',
  },
  { file: A, imgname: 'two_col_62467.png', query: 'How many people were reported for cannabis-related crimes in Italy in 2019?', program: 'value(2019)', kind: 'lookup' },
  { file: A, imgname: 'two_col_2886.png', query: "How many goals has Romelu Lukaku scored for Belgium's national football team?", program: 'value("Romelu Lukaku")', kind: 'lookup' },
  { file: A, imgname: 'two_col_434.png', query: 'How many arrests were there for all offenses in the United States in 2019?', program: 'value(2019)', kind: 'lookup' },
  { file: A, imgname: 'two_col_22355.png', query: 'What is the estimated amount of income from corporation tax in the UK in 2021/22?', program: 'value("2021/22")', kind: 'lookup' },
  { file: A, imgname: 'multi_col_441.png', query: 'What country had the highest internet penetration among individuals in 2012?', program: 'argmax(row(2012))', kind: 'argmax' },
  { file: A, imgname: 'multi_col_441.png', query: 'What was the internet penetration rate in Africa in 2019?', program: 'value(2019, "Africa")', kind: 'lookup' },
  { file: A, imgname: 'two_col_1581.png', query: 'In what year was the infant mortality rate 9.4 out of every 1,000 births?', program: 'argmax(where(series(), "==", 9.4))', kind: 'argmax' },
  { file: A, imgname: 'two_col_1581.png', query: 'What was the infant mortality rate in the United States in 2019?', program: 'value(2019)', kind: 'lookup' },
  { file: A, imgname: 'two_col_1581.png', query: 'What was the infant mortality rate in 1990?', program: 'value(1990)', kind: 'lookup' },
  { file: A, imgname: 'two_col_63392.png', query: 'What was the second largest carrier in Russia in 2020?', program: 'argmax(where(series(), "<", max(series())))', kind: 'argmax' },
  { file: A, imgname: 'two_col_63392.png', query: 'What airline had the highest number of passengers among Russian air carriers in 2020?', program: 'argmax(series())', kind: 'argmax' },
  { file: A, imgname: 'two_col_63392.png', query: "What was Aeroflot's passenger count in 2020?", program: 'value("Aeroflot")', kind: 'lookup' },
  { file: A, imgname: 'multi_col_20086.png', query: 'In what year did Western Digital dominate the disk and optical drive market?', program: 'argmax(series("Western Digital"))', kind: 'argmax' },
  { file: A, imgname: 'multi_col_20086.png', query: "What was Western Digital's market share in the first quarter of 2018?", program: 'value("Q1 2018", "Western Digital")', kind: 'lookup' },
  {
    file: A,
    imgname: 'multi_col_20086.png',
    query: 'Who was the leader of the disk and optical drive market in the first quarter of 2018?',
    program: 'argmax(row("Q1 2018"))',
    kind: 'argmax',
  },
  { file: A, imgname: 'two_col_41715.png', query: 'How many kidnappings did Brazil have in 2018?', program: 'value("Brazil")', kind: 'lookup' },
  { file: A, imgname: 'two_col_41715.png', query: 'Which country led the list of kidnapping cases in 2018?', program: 'argmax(series())', kind: 'argmax' },
  { file: A, imgname: 'two_col_41715.png', query: 'How many kidnappings occurred in Ecuador in 2018?', program: 'value("Ecuador")', kind: 'lookup' },
];

/**
 * Colour and position questions, with the colour resolved by hand to the row or series it
 * stands for (from the label, as no PNG of these charts is available). The language cannot
 * resolve a colour; once resolved, the computation is expressible.
 */
const VISUAL_RESOLVED: (Case & { resolved: string })[] = [
  {
    file: H,
    imgname: '01499440003158.png',
    query: 'What is the difference in value between Green bar and Orange bar?',
    program: 'diff(value("Cameroon"), value("Low income"))',
    kind: 'difference',
    resolved: 'green = Cameroon, orange = Low income',
  },
  { file: H, imgname: '3398.png', query: 'Is the value of light green bar 35 in 1989?', program: 'value(1989, "Center-left") == 35', kind: 'comparison', resolved: 'light green = Center-left' },
  {
    file: H,
    imgname: '14354115005935.png',
    query: 'Which name is represented by middle bar?',
    program: 'argmax(where(series(), "==", median(series())))',
    kind: 'median',
    resolved: 'middle bar of a sorted chart = the median',
  },
  { file: H, imgname: '1319.png', query: 'Is the value of gray bar 31 in China?', program: 'value("China", "About the same") == 31', kind: 'comparison', resolved: 'gray = About the same' },
  {
    file: H,
    imgname: '1319.png',
    query: 'Is the median of all the bars in China smaller than the largest value of green bar?',
    program: 'median(row("China")) < max(series("More"))',
    kind: 'median',
    resolved: 'green = More',
  },
];

const labels = new Map<string, string>();
for (const file of [H, A] as const) {
  for (const entry of QaFileSchema.parse(JSON.parse(readFileSync(`${SAMPLE}${file}`, 'utf8')))) {
    labels.set(`${file}|${entry.imgname}|${entry.query}`, entry.label);
  }
}

function check(item: Case): void {
  const label = labels.get(`${item.file}|${item.imgname}|${item.query}`);
  expect(label, `${item.file} has no entry for ${item.imgname}: ${item.query}`).toBeDefined();
  const table = readTableCsv(`${SAMPLE}tables/${item.imgname.replace(/\.png$/, '')}.csv`);
  const result = runProgram(table, item.program);
  if (!result.ok) throw new Error(`${item.program} failed: ${result.error.message}`);
  expect(relaxedCorrect(result.answer, label ?? ''), `${item.program} gave ${result.answer}, ChartQA says ${label}`).toBe(true);
}

describe('programs answering ChartQA sample questions', () => {
  it('cover at least 40 questions of every kind, each listed once', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(40);
    const kinds = new Set(CASES.map((item) => item.kind));
    for (const kind of ['lookup', 'difference', 'ratio', 'average', 'count', 'argmax', 'comparison', 'max', 'sum'] as const) expect(kinds).toContain(kind);
    expect(new Set(VISUAL_RESOLVED.map((item) => item.kind))).toContain('median');
    const keys = [...CASES, ...VISUAL_RESOLVED].map((item) => `${item.file}|${item.imgname}|${item.query}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it.each(CASES.map((item) => [item.query, item] as const))('%s', (_, item) => check(item));

  it.each(VISUAL_RESOLVED.map((item) => [`${item.query} (${item.resolved})`, item] as const))('%s', (_, item) => check(item));
});
