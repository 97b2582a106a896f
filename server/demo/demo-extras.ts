import type { ChartType } from '../../shared/domain/chart-types';
import { tableFromCells, type DataTable } from '../../shared/table/model';
import { runProgram } from '../../shared/table/program';

/*
 * What the generated demo split (ChartQA's layout: one chart, one table) cannot show: a
 * question over a group of charts, and a chart known only by its image. Both are fixed, not
 * seeded, so the README's tour can name them; their numbers are made up.
 */

/*
 * Their imgnames do not start with "demo_": the Charts list sorts by imgname, so the generated
 * ChartQA-style charts stay first and the extras come after them.
 */

export interface DemoGroupChart {
  imgname: string;
  title: string;
  chart_type: ChartType;
  table: DataTable;
}

/** The two charts of the demo group: the same years, so questions can relate one year across both. */
export const DEMO_GROUP_CHARTS: readonly [DemoGroupChart, DemoGroupChart] = [
  {
    imgname: 'group_larkspur_sales.png',
    title: 'Sales of Larkspur Goods by channel (million dollars)',
    chart_type: 'line',
    table: tableFromCells(
      ['Year', 'Online sales', 'Store sales'],
      [
        ['2017', '12.4', '30.1'],
        ['2018', '15.8', '29.3'],
        ['2019', '19.2', '27.6'],
        ['2020', '31.5', '18.2'],
        ['2021', '28.7', '22.4'],
        ['2022', '26.9', '24.8'],
      ],
    ),
  },
  {
    imgname: 'group_larkspur_costs.png',
    title: 'Costs of Larkspur Goods (million dollars)',
    chart_type: 'grouped_bar',
    table: tableFromCells(
      ['Year', 'Marketing costs', 'Staff costs'],
      [
        ['2017', '4.2', '21.5'],
        ['2018', '5.1', '22.0'],
        ['2019', '6.3', '22.8'],
        ['2020', '9.8', '19.4'],
        ['2021', '8.6', '20.7'],
        ['2022', '7.9', '21.9'],
      ],
    ),
  },
];

/** The group's key in the demo split (a re-run finds it by this) and the name curators see. */
export const DEMO_GROUP_KEY = 'demo-sales-and-costs';
export const DEMO_GROUP_NAME = 'Demo: sales and costs';

export interface DemoGroupQuestion {
  query: string;
  /** The program the offline engine reads the question as (H4's group-question-program.ts): the label is its answer. */
  program: string;
}

/**
 * The group's factual questions, one of each form the offline engine parses (S1 a series of the
 * first chart, S2 of the second, ROW a year, "year" the label column lower-cased).
 */
export const DEMO_GROUP_QUESTIONS: readonly DemoGroupQuestion[] = [
  {
    query: 'What is the difference between Online sales in the first chart and Marketing costs in the second chart in 2020?',
    program: 'diff(value(1, "2020", "Online sales"), value(2, "2020", "Marketing costs"))',
  },
  {
    query: 'Is Store sales in the first chart higher than Staff costs in the second chart in 2019?',
    program: 'if(value(1, "2019", "Store sales") > value(2, "2019", "Staff costs"), "Yes", "No")',
  },
  {
    query: 'In the year when Online sales in the first chart was highest, what was Staff costs in the second chart?',
    program: 'value(2, chart(1, argmax(series("Online sales"))), "Staff costs")',
  },
  {
    query: 'What is the total of Store sales in the first chart and Marketing costs in the second chart in 2021?',
    program: 'value(1, "2021", "Store sales") + value(2, "2021", "Marketing costs")',
  },
];

/** A group question's label: its program run over the two tables, so it is right by construction. */
export function demoGroupLabel(question: DemoGroupQuestion): string {
  const result = runProgram(DEMO_GROUP_CHARTS.map((chart) => chart.table), question.program);
  if (!result.ok) throw new Error(`demo group question "${question.query}": ${result.error.message}`);
  return result.answer;
}

/**
 * The chart stored without a table: its image is this table drawn by server/charts/render-chart.ts
 * (shipped as demo-image-only.png, since first start imports synchronously), and the table itself
 * is never stored — a curator extracts or types it in and confirms it.
 */
export const DEMO_IMAGE_ONLY_CHART = {
  imgname: 'image_only_parks.png',
  title: 'Visitors to Harrowgate parks in 2023 (thousands)',
  chart_type: 'vertical_bar' as ChartType,
  table: tableFromCells(
    ['Park', 'Visitors'],
    [
      ['Elm Park', '42'],
      ['Riverside', '57'],
      ['Hilltop', '35'],
      ['Lakeside', '61'],
      ['Old Mill', '28'],
    ],
  ),
  question: { query: 'Which park had the most visitors?', label: 'Lakeside' },
} as const;

/** The shipped image's file name, beside this module. */
export const DEMO_IMAGE_ONLY_PNG = 'demo-image-only.png';
