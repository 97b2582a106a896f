import { CHART_TYPES, type ChartType } from '../../shared/domain/chart-types';
import { uniform, type Rng } from '../../shared/random';

/*
 * Themes: what a demo chart is about, and which chart types and table shapes suit it. Every
 * name here is fictional and every number made up (see `demo-split.ts`).
 */

/**
 * How a table is laid out, as `<rows>-<series>`: `entity` (one series over entities), `time`
 * (one series over years or months), `time-entity`, `entity-facet`, `facet-entity`,
 * `entity-year` (a few years as series) and `entity-measure` (two measures, for scatter plots).
 */
export type Shape = 'entity' | 'time' | 'time-entity' | 'entity-facet' | 'facet-entity' | 'entity-year' | 'entity-measure';

export interface Pool {
  names: readonly string[];
  noun: string;
  plural: string;
  /** An ordinal scale (answers, age groups): always used whole and in this order. */
  ordered?: boolean;
}

export interface Theme {
  subjects: readonly string[];
  /** How a single entity is named in a title: "Revenue of X in <focus>". */
  focusPrep: string;
  measure: string;
  valueHeader: string;
  /** amount: positive and additive; share: percent of a whole; level: a rate or reading. */
  kind: 'amount' | 'share' | 'level';
  unit: '' | '%';
  range: readonly [number, number];
  decimals: number | readonly number[];
  entities: Pool;
  facets?: readonly Pool[];
  time?: 'years' | 'months';
  measures?: readonly [string, string];
  trend?: readonly [number, number];
  volatility?: number;
  /** The (ordered) entities run from largest to smallest, as internet use falls with age. */
  ranked?: boolean;
  /** The subject already names the entities: no "by <noun>" in titles. */
  plainTitle?: boolean;
  /** Visitor numbers collapse in 2020 and recover in 2021. */
  pandemicDip?: boolean;
  countries?: boolean;
  layouts: Partial<Record<ChartType, readonly Shape[]>>;
  /** Values for themes the generic generator cannot fake (seasons, correlations); rows × columns. */
  values?: (rng: Rng, rows: readonly string[], columns: readonly string[]) => number[][];
}

const VENDORS = ['Norvik', 'Altura', 'Helion', 'Quanta', 'Veridian', 'Solace', 'Kestrel', 'Brightline'];
const REGIONS = ['North America', 'Europe', 'Asia Pacific', 'Latin America', 'Middle East', 'Africa'];
const COUNTRIES = [
  'Arvania', 'Belmora', 'Caldoria', 'Dravenia', 'Eskaland', 'Fenmoor', 'Galvania', 'Hestoria',
  'Ilyria', 'Jorvania', 'Kestria', 'Lumeria', 'Marovia', 'Norlund', 'Ostravia', 'Pelagia',
];
const TOWNS = ['Northfield', 'Eastport', 'Riverton', 'Lakeside', 'Westbrook', 'Millbrook', 'Harborview', 'Springdale', 'Fairview', 'Oakridge', 'Maplewood', 'Brookhaven'];
const SOURCES = ['Coal', 'Natural gas', 'Nuclear', 'Hydro', 'Wind', 'Solar', 'Biomass'];
export const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const GROUPS: readonly Pool[] = [
  { names: ['Men', 'Women'], noun: 'group', plural: 'groups', ordered: true },
  { names: ['18-29', '30-49', '50-64', '65+'], noun: 'age group', plural: 'age groups', ordered: true },
  { names: ['Urban', 'Suburban', 'Rural'], noun: 'area', plural: 'areas', ordered: true },
];
const SEGMENTS: Pool = { names: ['Hardware', 'Software', 'Services', 'Licensing'], noun: 'segment', plural: 'segments' };

/** Mean and half the yearly swing of monthly temperatures; Sydney's seasons run the other way. */
const CLIMATES: Record<string, readonly [number, number]> = {
  Oslo: [6.5, 10], Toronto: [8.8, 13.5], Madrid: [15.2, 9.5], Tokyo: [16.3, 10.5],
  Cairo: [22.3, 7.3], Sydney: [18.6, -4.8], Chicago: [10.4, 14.5], Singapore: [27.6, 0.9],
};

function surveyTheme(subject: string, answers: readonly string[]): Theme {
  return {
    subjects: [subject], focusPrep: 'among', measure: 'share of respondents', valueHeader: 'Share of respondents',
    kind: 'share', unit: '%', range: [5, 60], decimals: 0,
    entities: { names: answers, noun: 'answer', plural: 'answers', ordered: true },
    facets: GROUPS,
    layouts: { pie: ['entity'], vertical_bar: ['entity'], horizontal_bar: ['entity'], stacked_bar: ['facet-entity'], grouped_bar: ['facet-entity'] },
  };
}

const THEMES: readonly Theme[] = [
  {
    subjects: ['Global smartphone market share', 'Global smartwatch market share', 'Cloud infrastructure market share'],
    focusPrep: 'of', measure: 'market share', valueHeader: 'Market share', kind: 'share', unit: '%',
    range: [5, 32], decimals: 1, trend: [-0.05, 0.05], volatility: 0.08, time: 'years',
    entities: { names: VENDORS, noun: 'vendor', plural: 'vendors' },
    layouts: { pie: ['entity'], horizontal_bar: ['entity'], vertical_bar: ['entity', 'time'], stacked_bar: ['time-entity'], grouped_bar: ['entity-year'], line: ['time', 'time-entity'], area: ['time-entity'] },
  },
  {
    subjects: ['Revenue of Norvik Systems', 'Revenue of Altura Group', 'Revenue of Helion Foods'],
    focusPrep: 'in', measure: 'revenue', valueHeader: 'Revenue in million U.S. dollars', kind: 'amount', unit: '',
    range: [150, 4200], decimals: 1, trend: [-0.03, 0.12], volatility: 0.06, time: 'years',
    entities: { names: REGIONS, noun: 'region', plural: 'regions' }, facets: [SEGMENTS],
    layouts: {
      vertical_bar: ['entity', 'time'], horizontal_bar: ['entity'], grouped_bar: ['time-entity', 'entity-facet', 'entity-year'],
      stacked_bar: ['time-entity', 'entity-facet'], line: ['time', 'time-entity'], area: ['time-entity'],
    },
  },
  {
    subjects: ['Population'], focusPrep: 'of', measure: 'population', valueHeader: 'Population in thousands',
    kind: 'amount', unit: '', range: [40, 950], decimals: 1, trend: [-0.005, 0.02], volatility: 0.004, time: 'years',
    entities: { names: TOWNS, noun: 'town', plural: 'towns' },
    layouts: { vertical_bar: ['entity', 'time'], horizontal_bar: ['entity'], line: ['time', 'time-entity'], area: ['time', 'time-entity'], grouped_bar: ['entity-year'] },
  },
  surveyTheme('Likelihood of buying an electric car within five years', ['Very likely', 'Somewhat likely', 'Not very likely', 'Not at all likely', "Don't know"]),
  surveyTheme('Satisfaction with local public transport', ['Very satisfied', 'Somewhat satisfied', 'Somewhat dissatisfied', 'Very dissatisfied']),
  surveyTheme('How often employees work from home', ['Every day', 'Several times a week', 'Once a week', 'Rarely', 'Never']),
  {
    subjects: ['Average monthly temperature'], focusPrep: 'in', measure: 'average temperature',
    valueHeader: 'Temperature in degrees Celsius', kind: 'level', unit: '', range: [-5, 35], decimals: 1, time: 'months',
    entities: { names: Object.keys(CLIMATES), noun: 'city', plural: 'cities' },
    layouts: { vertical_bar: ['time'], grouped_bar: ['time-entity'] },
    values: (rng, rows, columns) =>
      rows.map((_, month) =>
        columns.map((city) => {
          const [mean, swing] = CLIMATES[city] ?? [15, 8];
          return mean - swing * Math.cos((2 * Math.PI * (month - 0.4)) / 12) + uniform(rng, -0.9, 0.9);
        }),
      ),
  },
  {
    subjects: ['Unemployment rate'], focusPrep: 'in', measure: 'unemployment rate', valueHeader: 'Unemployment rate',
    kind: 'level', unit: '%', range: [3, 12], decimals: 1, trend: [-0.04, 0.04], volatility: 0.1, time: 'years', countries: true,
    entities: { names: COUNTRIES, noun: 'country', plural: 'countries' },
    layouts: { line: ['time', 'time-entity'], vertical_bar: ['time', 'entity'], horizontal_bar: ['entity'], grouped_bar: ['entity-year', 'time-entity'] },
  },
  {
    subjects: ['Number of visitors'], focusPrep: 'to', measure: 'number of visitors', valueHeader: 'Number of visitors in millions',
    kind: 'amount', unit: '', range: [0.4, 9.5], decimals: 2, trend: [0, 0.06], volatility: 0.05, time: 'years', pandemicDip: true,
    entities: { names: ['City Art Museum', 'Harbor Aquarium', 'Science Center', 'Maritime Museum', 'Old Town Castle', 'Botanical Garden', 'Railway Museum', 'Modern Art Gallery', 'Riverside Zoo', 'Royal Palace'], noun: 'attraction', plural: 'attractions' },
    layouts: { horizontal_bar: ['entity'], vertical_bar: ['time', 'entity'], line: ['time'], grouped_bar: ['entity-year'] },
  },
  {
    subjects: ['Electricity generation'], focusPrep: 'from', measure: 'electricity generation', valueHeader: 'Generation in terawatt hours',
    kind: 'amount', unit: '', range: [8, 320], decimals: 1, trend: [-0.06, 0.15], volatility: 0.05, time: 'years',
    entities: { names: SOURCES, noun: 'source', plural: 'sources' },
    layouts: { area: ['time', 'time-entity'], line: ['time-entity'], stacked_bar: ['time-entity'], grouped_bar: ['entity-year'], horizontal_bar: ['entity'] },
  },
  {
    subjects: ['Share of electricity generation'], focusPrep: 'from', measure: 'share of generation', valueHeader: 'Share of generation',
    kind: 'share', unit: '%', range: [2, 40], decimals: 1, time: 'years',
    entities: { names: SOURCES, noun: 'source', plural: 'sources' },
    layouts: { pie: ['entity'], stacked_bar: ['time-entity'], horizontal_bar: ['entity'] },
  },
  {
    subjects: ['Box office revenue of the highest-grossing films'], focusPrep: 'of', measure: 'box office revenue',
    valueHeader: 'Box office revenue in million U.S. dollars', kind: 'amount', unit: '', range: [60, 980], decimals: 1, plainTitle: true,
    entities: { names: ['Starfall', 'The Silent Harbor', 'Iron Meadow', 'Last Light Protocol', 'Paper Kingdoms', 'Midnight Courier', 'Echo Valley', 'The Glass Orchard', 'Skyward Bound', 'The Lantern Keeper', 'Winter Circuit', 'Hollow Crown'], noun: 'film', plural: 'films' },
    layouts: { horizontal_bar: ['entity'], vertical_bar: ['entity'] },
  },
  {
    subjects: ['Number of Solace Outfitters stores', 'Number of Brightline Coffee stores'], focusPrep: 'in', measure: 'number of stores',
    valueHeader: 'Number of stores', kind: 'amount', unit: '', range: [12, 420], decimals: 0, trend: [0.01, 0.12], volatility: 0.05, time: 'years',
    entities: { names: REGIONS, noun: 'region', plural: 'regions' },
    layouts: { grouped_bar: ['time-entity'], stacked_bar: ['time-entity'], line: ['time-entity'], vertical_bar: ['time', 'entity'] },
  },
  {
    subjects: ['Household spending'], focusPrep: 'on', measure: 'share of spending', valueHeader: 'Share of household spending',
    kind: 'share', unit: '%', range: [3, 35], decimals: 1, time: 'years',
    entities: { names: ['Housing', 'Food', 'Transport', 'Health', 'Leisure', 'Clothing', 'Education', 'Communication'], noun: 'category', plural: 'categories' },
    layouts: { pie: ['entity'], horizontal_bar: ['entity'], stacked_bar: ['time-entity'], other: ['entity'] },
  },
  {
    subjects: ['Share of adults who use the internet daily'], focusPrep: 'among', measure: 'share of daily internet users',
    valueHeader: 'Share of respondents', kind: 'level', unit: '%', range: [35, 98], decimals: 0, trend: [0, 0.05], volatility: 0.02, time: 'years', ranked: true,
    entities: { names: ['16-24', '25-34', '35-44', '45-54', '55-64', '65+'], noun: 'age group', plural: 'age groups', ordered: true },
    layouts: { vertical_bar: ['entity'], grouped_bar: ['entity-year'], line: ['time-entity'] },
  },
  {
    subjects: ['GDP per capita and life expectancy'], focusPrep: 'in', measure: 'value', valueHeader: 'Value',
    kind: 'level', unit: '', range: [0, 0], decimals: [0, 1], countries: true,
    entities: { names: COUNTRIES, noun: 'country', plural: 'countries' },
    measures: ['GDP per capita (U.S. dollars)', 'Life expectancy (years)'],
    layouts: { scatter: ['entity-measure'] },
    values: (rng, rows) =>
      rows.map(() => {
        const gdpLog = uniform(rng, 3, 4.9);
        return [10 ** gdpLog, 58 + (gdpLog - 3) * 13 + uniform(rng, -2.5, 2.5)];
      }),
  },
  {
    subjects: ['Advertising spend and sales of Riverton Outdoor stores'], focusPrep: 'in', measure: 'value', valueHeader: 'Value',
    kind: 'amount', unit: '', range: [0, 0], decimals: 1,
    entities: { names: TOWNS, noun: 'store', plural: 'stores' },
    measures: ['Advertising spend (thousand U.S. dollars)', 'Sales (thousand U.S. dollars)'],
    layouts: { scatter: ['entity-measure'] },
    values: (rng, rows) =>
      rows.map(() => {
        const spend = uniform(rng, 20, 180);
        return [spend, 150 + spend * uniform(rng, 4, 7)];
      }),
  },
  {
    subjects: ['Expert ratings of smartphones', 'Expert ratings of electric cars'], focusPrep: 'of', measure: 'rating', valueHeader: 'Rating',
    kind: 'level', unit: '', range: [4.5, 9.8], decimals: 1,
    entities: { names: ['Norvik X2', 'Altura S9', 'Helion 7', 'Quanta Pro'], noun: 'model', plural: 'models' },
    facets: [{ names: ['Design', 'Performance', 'Battery life', 'Comfort', 'Price', 'Safety'], noun: 'criterion', plural: 'criteria', ordered: true }],
    layouts: { other: ['facet-entity'], grouped_bar: ['facet-entity'] },
  },
];

/** The themes that can draw each chart type. */
export const THEMES_BY_TYPE = new Map<ChartType, Theme[]>(CHART_TYPES.map((type) => [type, THEMES.filter((t) => (t.layouts[type]?.length ?? 0) > 0)]));
