import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CHART_TYPES, type ChartType } from '../../shared/domain/chart-types';
import { inferChartType } from '../../shared/domain/infer-chart-type';
import type { QaSource } from '../../shared/domain/qa';
import { tableFromCells, type DataTable } from '../../shared/table/model';

/*
 * The workbench's own demo data: splits in ChartQA's layout, generated from code, so a new
 * install shows a working workbench without shipping ChartQA (GPL-3.0) and the import
 * benchmark can make splits of any size. Companies, countries, towns and films are fictional,
 * every number is made up (temperatures follow each real city's rough climate), and a seed
 * always gives the same bytes.
 */

export type Rng = () => number;

/** mulberry32: a tiny, fast, seedable PRNG; good enough for demo data, not for secrets. */
export function mulberry32(seed: number): Rng {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Each chart gets its own stream, so chart i depends only on the seed, i and its type. */
function chartSeed(seed: number, index: number): number {
  let h = Math.imul(seed ^ 0x5bd1e995, 0x85ebca6b) ^ Math.imul(index + 1, 0xc2b2ae35);
  h ^= h >>> 13;
  h = Math.imul(h, 0x27d4eb2f);
  return (h ^ (h >>> 16)) >>> 0;
}

function at<T>(items: readonly T[], index: number): T {
  const item = items[index];
  if (item === undefined) throw new Error(`index ${index} is outside a list of ${items.length}`);
  return item;
}
const randInt = (rng: Rng, lo: number, hi: number): number => lo + Math.floor(rng() * (hi - lo + 1));
const uniform = (rng: Rng, lo: number, hi: number): number => lo + rng() * (hi - lo);
const pick = <T>(rng: Rng, items: readonly T[]): T => at(items, Math.floor(rng() * items.length));

function shuffle<T>(rng: Rng, items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [out[i], out[j]] = [at(out, j), at(out, i)];
  }
  return out;
}

/** Rounds as ChartQA labels are rounded: at most 2 decimals, no trailing zeros. */
export function formatAnswer(value: number): string {
  return String(Number(value.toFixed(2)));
}

// ---------------------------------------------------------------------------------------------
// Themes: what a chart is about, and which chart types and table shapes suit it.
// ---------------------------------------------------------------------------------------------

/**
 * How a table is laid out, as `<rows>-<series>`: `entity` (one series over entities), `time`
 * (one series over years or months), `time-entity`, `entity-facet`, `facet-entity`,
 * `entity-year` (a few years as series) and `entity-measure` (two measures, for scatter plots).
 */
type Shape = 'entity' | 'time' | 'time-entity' | 'entity-facet' | 'facet-entity' | 'entity-year' | 'entity-measure';

interface Pool {
  names: readonly string[];
  noun: string;
  plural: string;
  /** An ordinal scale (answers, age groups): always used whole and in this order. */
  ordered?: boolean;
}

interface Theme {
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
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
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

/** Roughly how often each type appears after the first charts, which cover every type once. */
const TYPE_WEIGHTS: Record<ChartType, number> = {
  vertical_bar: 20, horizontal_bar: 14, grouped_bar: 14, stacked_bar: 10, line: 16, pie: 10, area: 6, scatter: 5, other: 5,
};
const TYPE_WEIGHT_TOTAL = CHART_TYPES.reduce((n, type) => n + TYPE_WEIGHTS[type], 0);

function weightedType(rng: Rng): ChartType {
  let ticket = rng() * TYPE_WEIGHT_TOTAL;
  for (const type of CHART_TYPES) {
    ticket -= TYPE_WEIGHTS[type];
    if (ticket < 0) return type;
  }
  return 'vertical_bar';
}

/** Share of charts (where the importer's inference agrees with the type) written without an annotation. */
const UNANNOTATED_SHARE = 0.35;

// ---------------------------------------------------------------------------------------------
// Tables: rows, series and values for one chart.
// ---------------------------------------------------------------------------------------------

interface Layout {
  shape: Shape;
  rows: string[];
  series: string[];
  /** What each value column is about (an entity, a year, a measure), for value generators. */
  columns: string[];
  rowPool: Pool | null;
  seriesNoun: string;
  time: 'years' | 'months' | null;
  years: number[];
  /** Which way shares add up to 100: across each row, down each column, or not at all. */
  sum: 'rows' | 'columns' | null;
  focus: string | null;
}

const OTHERS = 'Others';

function takeNames(rng: Rng, pool: Pool, count: number): string[] {
  if (pool.ordered) return [...pool.names];
  return shuffle(rng, pool.names).slice(0, Math.min(count, pool.names.length));
}

/** Shares of a whole drawn from an unordered pool usually end with an "Others" slice. */
function withOthers(rng: Rng, pool: Pool, names: string[]): string[] {
  return !pool.ordered && names.length < pool.names.length && rng() < 0.6 ? [...names, OTHERS] : names;
}

function yearSpan(rng: Rng, count: number): number[] {
  const last = randInt(rng, 2016, 2023);
  return Array.from({ length: count }, (_, i) => last - count + 1 + i);
}

function rowCount(rng: Rng, type: ChartType, shape: Shape): number {
  const long = type === 'line' || type === 'area';
  switch (shape) {
    case 'time':
      return long ? randInt(rng, 8, 18) : randInt(rng, 5, 11);
    case 'time-entity':
      return long ? randInt(rng, 7, 14) : randInt(rng, 4, 8);
    case 'entity':
      if (type === 'pie' || type === 'other') return randInt(rng, 3, 6);
      return type === 'horizontal_bar' ? randInt(rng, 6, 12) : randInt(rng, 4, 8);
    case 'entity-measure':
      return randInt(rng, 8, 16);
    default:
      return randInt(rng, 3, 6);
  }
}

function layOut(rng: Rng, theme: Theme, type: ChartType, shape: Shape): Layout {
  const share = theme.kind === 'share';
  const entities = theme.entities;
  const count = rowCount(rng, type, shape);
  const base: Layout = {
    shape, rows: [], series: [theme.valueHeader], columns: [theme.valueHeader], rowPool: entities,
    seriesNoun: entities.noun, time: null, years: [], sum: null, focus: null,
  };
  const timeRows = (): Pick<Layout, 'rows' | 'time' | 'years' | 'rowPool'> => {
    if (theme.time === 'months') return { rows: [...MONTHS], time: 'months', years: [], rowPool: null };
    const years = yearSpan(rng, count);
    return { rows: years.map(String), time: 'years', years, rowPool: null };
  };
  switch (shape) {
    case 'entity':
      return { ...base, rows: share ? withOthers(rng, entities, takeNames(rng, entities, count)) : takeNames(rng, entities, count), sum: share ? 'columns' : null };
    case 'time': {
      const focus = pick(rng, entities.names);
      return { ...base, ...timeRows(), columns: [focus], focus };
    }
    case 'time-entity': {
      const names = share ? withOthers(rng, entities, takeNames(rng, entities, randInt(rng, 3, 5))) : takeNames(rng, entities, randInt(rng, 2, 4));
      return { ...base, ...timeRows(), series: names, columns: names, sum: share ? 'rows' : null };
    }
    case 'entity-facet': {
      const facets = pick(rng, theme.facets ?? []);
      const names = takeNames(rng, facets, randInt(rng, 2, 4));
      return { ...base, rows: takeNames(rng, entities, count), series: names, columns: names, seriesNoun: facets.noun };
    }
    case 'facet-entity': {
      const facets = pick(rng, theme.facets ?? []);
      const names = share ? withOthers(rng, entities, takeNames(rng, entities, randInt(rng, 3, 5))) : takeNames(rng, entities, randInt(rng, 2, 4));
      return { ...base, rows: takeNames(rng, facets, count), rowPool: facets, series: names, columns: names, sum: share ? 'rows' : null };
    }
    case 'entity-year': {
      const last = randInt(rng, 2018, 2023);
      const years = rng() < 0.5 ? [last - randInt(rng, 1, 5), last] : [last - 2, last - 1, last];
      const rows = takeNames(rng, entities, count);
      const names = years.map(String);
      return { ...base, rows: share ? withOthers(rng, entities, rows) : rows, series: names, columns: names, seriesNoun: 'year', years, sum: share ? 'columns' : null };
    }
    case 'entity-measure': {
      const measures = theme.measures ?? [theme.valueHeader, theme.valueHeader];
      return { ...base, rows: takeNames(rng, entities, count), series: [...measures], columns: [...measures], seriesNoun: 'measure' };
    }
  }
}

/** Magnitudes spanning more than an order of magnitude are drawn log-uniformly, as real ones spread. */
function spread(rng: Rng, [lo, hi]: readonly [number, number]): number {
  return lo > 0 && hi / lo > 8 ? Math.exp(uniform(rng, Math.log(lo), Math.log(hi))) : uniform(rng, lo, hi);
}

/** Starting magnitudes for `count` entities; an ordered pool marked `ranked` gets them largest first. */
function starts(rng: Rng, theme: Theme, count: number): number[] {
  const out = Array.from({ length: count }, () => spread(rng, theme.range));
  return theme.ranked ? out.sort((a, b) => b - a) : out;
}

/** A yearly series with a trend; it turns back before leaving the theme's range rather than flattening at a cap. */
function walk(rng: Rng, theme: Theme, years: readonly number[], steps: number, start: number): number[] {
  const [lo, hi] = theme.range;
  const ceiling = theme.unit === '%' ? Math.min(hi * 1.2, 99) : hi * 1.3;
  const [gLo, gHi] = theme.trend ?? [0, 0];
  let growth = uniform(rng, gLo, gHi);
  const volatility = theme.volatility ?? 0.05;
  let value = start;
  const out: number[] = [];
  for (let i = 0; i < steps; i++) {
    if (i > 0) {
      if ((value > ceiling && growth > 0) || (value < lo * 0.7 && growth < 0)) growth = -growth / 2;
      value = Math.min(Math.max(value * (1 + growth + uniform(rng, -volatility, volatility)), lo * 0.5), ceiling * 1.1);
    }
    const year = years[i];
    const dip = theme.pandemicDip && year === 2020 ? uniform(rng, 0.3, 0.45) : theme.pandemicDip && year === 2021 ? uniform(rng, 0.6, 0.8) : 1;
    out.push(value * dip);
  }
  return out;
}

/**
 * Splits 100 into parts proportional to `weights` at `decimals` precision (largest remainder),
 * so the parts as written add up to exactly 100.
 */
function splitHundred(weights: readonly number[], decimals: number): number[] {
  const scale = 10 ** decimals;
  const total = 100 * scale;
  const sum = weights.reduce((a, b) => a + b, 0);
  const raw = weights.map((w) => (w / sum) * (total - weights.length) + 1);
  const units = raw.map(Math.floor);
  let rest = total - units.reduce((a, b) => a + b, 0);
  const order = raw.map((r, i) => ({ i, frac: r - Math.floor(r) })).sort((a, b) => b.frac - a.frac || a.i - b.i);
  for (const { i } of order) {
    if (rest <= 0) break;
    units[i] = at(units, i) + 1;
    rest--;
  }
  return units.map((u) => u / scale);
}

/** Share weights that drift smoothly from one row (or column) to the next. */
function shareMatrix(rng: Rng, lines: number, parts: number, decimals: number, names: readonly string[]): number[][] {
  const weights = names.map((name) => (name === OTHERS ? uniform(rng, 0.15, 0.3) : 0.1 + rng() ** 1.3));
  const drift = names.map(() => uniform(rng, -0.08, 0.08));
  return Array.from({ length: lines }, (_, line) =>
    splitHundred(Array.from({ length: parts }, (_, p) => at(weights, p) * Math.exp(at(drift, p) * line + uniform(rng, -0.1, 0.1))), decimals),
  );
}

const transpose = (matrix: readonly number[][]): number[][] => (matrix[0] ?? []).map((_, j) => matrix.map((row) => at(row, j)));

function decimalsOf(theme: Theme, column: number): number {
  return typeof theme.decimals === 'number' ? theme.decimals : at(theme.decimals, column);
}

/** rows × series values, rounded to the theme's precision. */
function makeValues(rng: Rng, theme: Theme, layout: Layout): number[][] {
  const { rows, columns, shape, sum } = layout;
  const d0 = decimalsOf(theme, 0);
  if (sum === 'rows') return shareMatrix(rng, rows.length, columns.length, d0, columns);
  if (sum === 'columns') return transpose(shareMatrix(rng, columns.length, rows.length, d0, rows));
  let values: number[][];
  if (theme.values) {
    values = theme.values(rng, rows, columns);
  } else if (shape === 'time' || shape === 'time-entity') {
    values = transpose(starts(rng, theme, columns.length).map((start) => walk(rng, theme, layout.years, rows.length, start)));
  } else if (shape === 'entity-year') {
    const growth = uniform(rng, ...(theme.trend ?? [-0.05, 0.08]));
    const noise = theme.volatility ?? 0.05;
    const first = at(layout.years, 0);
    values = starts(rng, theme, rows.length).map((start) =>
      layout.years.map((year) => start * (1 + growth) ** (year - first) * uniform(rng, 1 - noise, 1 + noise)),
    );
  } else if (theme.kind === 'level') {
    // Rates and ratings of different things are not proportional to each other.
    values = starts(rng, theme, rows.length).map((start) => columns.map((_, j) => (j === 0 ? start : spread(rng, theme.range))));
  } else {
    const factors = columns.map(() => (columns.length > 1 ? uniform(rng, 0.55, 1.45) : 1));
    values = starts(rng, theme, rows.length).map((start) => factors.map((f) => start * f * uniform(rng, 0.85, 1.15)));
  }
  return values.map((row) =>
    row.map((value, j) => {
      const d = decimalsOf(theme, j);
      let v = theme.unit === '%' ? Math.min(value, 100) : value;
      if (theme.kind !== 'level') v = Math.max(v, 10 ** -d);
      return Number(v.toFixed(d));
    }),
  );
}

/** Orders rows as Statista draws them: rankings largest first with "Others" last; time mostly ascending. */
function orderRows(rng: Rng, type: ChartType, layout: Layout, values: number[][]): number[] {
  const index = layout.rows.map((_, i) => i);
  if (layout.time) {
    const bars = type !== 'line' && type !== 'area';
    return bars && layout.time === 'years' && rng() < 0.3 ? index.reverse() : index;
  }
  const ranked = layout.shape === 'entity' && !layout.rowPool?.ordered && (type !== 'vertical_bar' || layout.sum !== null || rng() < 0.5);
  if (!ranked) return index;
  const rank = (i: number) => (layout.rows[i] === OTHERS ? -Infinity : at(at(values, i), 0));
  return index.sort((a, b) => rank(b) - rank(a) || a - b);
}

function formatCell(value: number, decimals: number, unit: string): string {
  return String(Number(value.toFixed(decimals))) + unit;
}

function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** CSV text as ChartQA writes it: CRLF after every line, including the last. */
export function tableCsv(header: readonly string[], body: readonly (readonly string[])[]): string {
  let text = header.map(csvField).join(',') + '\r\n';
  for (const row of body) text += row.map(csvField).join(',') + '\r\n';
  return text;
}

/** Blanks 1–2 cells of a table that is not a share of a whole, never leaving a column under 3 numbers. */
function punchGaps(rng: Rng, body: string[][], token: string): void {
  const gaps = randInt(rng, 1, 2);
  for (let attempt = 0, made = 0; attempt < 10 && made < gaps; attempt++) {
    const r = randInt(rng, 0, body.length - 1);
    const c = randInt(rng, 1, at(body, 0).length - 1);
    const present = body.filter((row) => row[c] !== 'nan' && row[c] !== '-').length;
    const row = at(body, r);
    if (present <= 3 || row[c] === token) continue;
    row[c] = token;
    made++;
  }
}

// ---------------------------------------------------------------------------------------------
// Questions: factual QAs whose labels are computed from the table as the importer reads it.
// ---------------------------------------------------------------------------------------------

export const DEMO_QUESTION_KINDS = ['lookup', 'max', 'min', 'difference', 'sum', 'average', 'count', 'compare'] as const;
export type DemoQuestionKind = (typeof DEMO_QUESTION_KINDS)[number];

export interface DemoQuestion {
  kind: DemoQuestionKind;
  query: string;
  label: string;
}

/** What the generator knows about a table that the table itself does not say. */
export interface QuestionContext {
  /** The single series' measure in prose ("revenue", "market share"). */
  measure: string;
  rowNoun: string;
  rowNounPlural: string;
  seriesNoun: string;
  /** Rows are years or months: questions say "in 2019" rather than "for Europe". */
  timeRows: boolean;
  /** Sums of values mean something (amounts, shares; not temperatures or rates). */
  additive: boolean;
  /** Values of different series share a unit (false for a scatter plot's two measures). */
  comparableSeries: boolean;
}

type Answer = { query: string; label: string } | null;
type Maker = (table: DataTable, ctx: QuestionContext, rng: Rng) => Answer;

interface Wording {
  multi: boolean;
  /** The column in prose: the measure for one series, "value of <series>" for several. */
  col: (s: number) => string;
  prep: string;
  verb: string;
  lead: string;
}

function wording(table: DataTable, ctx: QuestionContext): Wording {
  const multi = table.series.length > 1;
  return {
    multi,
    col: (s) => (multi ? `value of ${at(table.series, s)}` : ctx.measure),
    prep: ctx.timeRows ? 'in' : 'for',
    verb: ctx.timeRows ? 'was' : 'is',
    lead: ctx.timeRows ? 'In' : 'For',
  };
}

const rowLabel = (table: DataTable, r: number): string => at(table.rows, r).label;
const valueAt = (table: DataTable, r: number, s: number): number | null => at(table.rows, r).values[s] ?? null;
const seriesIndexes = (table: DataTable): number[] => table.series.map((_, s) => s);

function presentRows(table: DataTable, s: number): number[] {
  return table.rows.flatMap((row, r) => (row.values[s] == null ? [] : [r]));
}
function presentSeries(table: DataTable, r: number): number[] {
  return at(table.rows, r).values.flatMap((v, s) => (v === null ? [] : [s]));
}
/** A column's numbers, or null when a cell is missing (aggregates over gaps are not asked). */
function fullColumn(table: DataTable, s: number): number[] | null {
  const out: number[] = [];
  for (const row of table.rows) {
    const v = row.values[s];
    if (v == null) return null;
    out.push(v);
  }
  return out;
}

/** The index of the single largest (or smallest) value, or -1 on a tie. */
function uniqueExtreme(values: readonly number[], direction: 'max' | 'min'): number {
  const best = direction === 'max' ? Math.max(...values) : Math.min(...values);
  const hits = values.flatMap((v, i) => (v === best ? [i] : []));
  return hits.length === 1 ? at(hits, 0) : -1;
}

/** Two distinct indexes in their table order, or null. */
function twoOf(rng: Rng, indexes: readonly number[]): [number, number] | null {
  if (indexes.length < 2) return null;
  const [a = 0, b = 0] = shuffle(rng, indexes);
  return a < b ? [a, b] : [b, a];
}

const lookup: Maker = (table, ctx, rng) => {
  const w = wording(table, ctx);
  const cells = seriesIndexes(table).flatMap((s) => presentRows(table, s).map((r) => [r, s] as const));
  if (cells.length === 0) return null;
  const [r, s] = pick(rng, cells);
  return { query: `What ${w.verb} the ${w.col(s)} ${w.prep} ${rowLabel(table, r)}?`, label: formatAnswer(valueAt(table, r, s) ?? 0) };
};

const columnExtreme = (direction: 'max' | 'min'): Maker => (table, ctx, rng) => {
  const w = wording(table, ctx);
  const options = seriesIndexes(table).flatMap((s) => {
    const values = fullColumn(table, s);
    const r = values && values.length >= 2 ? uniqueExtreme(values, direction) : -1;
    return r < 0 ? [] : [{ s, r }];
  });
  if (options.length === 0) return null;
  const { s, r } = pick(rng, options);
  const word = direction === 'max' ? 'highest' : 'lowest';
  return { query: `Which ${ctx.rowNoun} had the ${word} ${w.col(s)}?`, label: rowLabel(table, r) };
};

const seriesExtreme = (direction: 'max' | 'min'): Maker => (table, ctx, rng) => {
  const w = wording(table, ctx);
  if (!w.multi || !ctx.comparableSeries) return null;
  const options = table.rows.flatMap((row, r) => {
    const values = row.values.filter((v): v is number => v !== null);
    if (values.length < row.values.length) return [];
    const s = uniqueExtreme(values, direction);
    return s < 0 ? [] : [{ r, s }];
  });
  if (options.length === 0) return null;
  const { r, s } = pick(rng, options);
  const word = direction === 'max' ? 'highest' : 'lowest';
  return { query: `${w.lead} ${rowLabel(table, r)}, which ${ctx.seriesNoun} had the ${word} value?`, label: at(table.series, s) };
};

const columnPair = (op: 'difference' | 'sum'): Maker => (table, ctx, rng) => {
  if (op === 'sum' && !ctx.additive) return null;
  const w = wording(table, ctx);
  const options = seriesIndexes(table).filter((s) => presentRows(table, s).length >= 2);
  if (options.length === 0) return null;
  const s = pick(rng, options);
  const pair = twoOf(rng, presentRows(table, s));
  if (!pair) return null;
  const [a, b] = pair.map((r) => valueAt(table, r, s) ?? 0) as [number, number];
  const [A, B] = pair.map((r) => rowLabel(table, r));
  return op === 'difference'
    ? { query: `What is the difference between the ${w.col(s)} ${w.prep} ${A} and ${B}?`, label: formatAnswer(Math.abs(a - b)) }
    : { query: `What is the sum of the ${w.col(s)} ${w.prep} ${A} and ${B}?`, label: formatAnswer(a + b) };
};

const seriesPair = (op: 'difference' | 'sum'): Maker => (table, ctx, rng) => {
  if (op === 'sum' && !ctx.additive) return null;
  const w = wording(table, ctx);
  if (!w.multi || !ctx.comparableSeries) return null;
  const options = table.rows.flatMap((_, r) => (presentSeries(table, r).length >= 2 ? [r] : []));
  if (options.length === 0) return null;
  const r = pick(rng, options);
  const pair = twoOf(rng, presentSeries(table, r));
  if (!pair) return null;
  const [a, b] = pair.map((s) => valueAt(table, r, s) ?? 0) as [number, number];
  const [S, T] = pair.map((s) => at(table.series, s));
  const L = rowLabel(table, r);
  return op === 'difference'
    ? { query: `What is the difference between ${S} and ${T} ${w.prep} ${L}?`, label: formatAnswer(Math.abs(a - b)) }
    : { query: `What is the sum of ${S} and ${T} ${w.prep} ${L}?`, label: formatAnswer(a + b) };
};

const average: Maker = (table, ctx, rng) => {
  const w = wording(table, ctx);
  const options = seriesIndexes(table).filter((s) => (fullColumn(table, s)?.length ?? 0) >= 2);
  if (options.length === 0) return null;
  const s = pick(rng, options);
  const values = fullColumn(table, s) ?? [];
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  return { query: `What is the average ${w.col(s)} across all ${ctx.rowNounPlural}?`, label: formatAnswer(mean) };
};

/** The roundest number strictly between lo and hi (as written), for "more than N" questions. */
function thresholdBetween(lo: number, hi: number): number | null {
  for (const step of [1000, 500, 100, 50, 10, 5, 1, 0.5, 0.1, 0.05, 0.01]) {
    const candidate = Number(((Math.floor(lo / step) + 1) * step).toFixed(2));
    if (candidate > lo && candidate < hi) return candidate;
  }
  return null;
}

const count: Maker = (table, ctx, rng) => {
  const w = wording(table, ctx);
  const options = seriesIndexes(table).filter((s) => (fullColumn(table, s)?.length ?? 0) >= 3);
  if (options.length === 0) return null;
  const s = pick(rng, options);
  const values = fullColumn(table, s) ?? [];
  const distinct = [...new Set(values)].sort((a, b) => a - b);
  if (distinct.length < 2) return null;
  const k = randInt(rng, 1, distinct.length - 1);
  const threshold = thresholdBetween(at(distinct, k - 1), at(distinct, k));
  if (threshold === null) return null;
  return {
    query: `In how many ${ctx.rowNounPlural} was the ${w.col(s)} more than ${threshold}?`,
    label: String(values.filter((v) => v > threshold).length),
  };
};

const columnCompare: Maker = (table, ctx, rng) => {
  const w = wording(table, ctx);
  const s = pick(rng, seriesIndexes(table));
  const pair = twoOf(rng, presentRows(table, s));
  if (!pair) return null;
  const [a, b] = pair.map((r) => valueAt(table, r, s) ?? 0) as [number, number];
  if (a === b) return null;
  const greater = rng() < 0.5;
  const [A, B] = pair.map((r) => rowLabel(table, r));
  return {
    query: `Is the ${w.col(s)} ${w.prep} ${A} ${greater ? 'greater' : 'less'} than ${ctx.timeRows ? 'in' : 'that for'} ${B}?`,
    label: (greater ? a > b : a < b) ? 'Yes' : 'No',
  };
};

const seriesCompare: Maker = (table, ctx, rng) => {
  const w = wording(table, ctx);
  if (!w.multi || !ctx.comparableSeries) return null;
  const r = randInt(rng, 0, table.rows.length - 1);
  const pair = twoOf(rng, presentSeries(table, r));
  if (!pair) return null;
  const [a, b] = pair.map((s) => valueAt(table, r, s) ?? 0) as [number, number];
  if (a === b) return null;
  const greater = rng() < 0.5;
  const [S, T] = pair.map((s) => at(table.series, s));
  return {
    query: `${w.lead} ${rowLabel(table, r)}, is the value of ${S} ${greater ? 'greater' : 'less'} than that of ${T}?`,
    label: (greater ? a > b : a < b) ? 'Yes' : 'No',
  };
};

const MAKERS: Record<DemoQuestionKind, readonly Maker[]> = {
  lookup: [lookup],
  max: [columnExtreme('max'), seriesExtreme('max')],
  min: [columnExtreme('min'), seriesExtreme('min')],
  difference: [columnPair('difference'), seriesPair('difference')],
  sum: [columnPair('sum'), seriesPair('sum')],
  average: [average],
  count: [count],
  compare: [columnCompare, seriesCompare],
};

/** One question of the given kind about the table, or null when the table cannot support one. */
export function demoQuestion(kind: DemoQuestionKind, table: DataTable, ctx: QuestionContext, rng: Rng): DemoQuestion | null {
  for (const maker of shuffle(rng, MAKERS[kind])) {
    const answer = maker(table, ctx, rng);
    if (answer) return { kind, ...answer };
  }
  return null;
}

/**
 * Up to `count` factual questions of distinct kinds, a lookup first. Missing cells are never
 * asked about, and aggregates (max, min, average, count) are only asked of complete columns.
 */
export function demoQuestionsForTable(table: DataTable, ctx: QuestionContext, rng: Rng, count: number): DemoQuestion[] {
  const kinds: DemoQuestionKind[] = ['lookup', ...shuffle(rng, DEMO_QUESTION_KINDS.filter((k) => k !== 'lookup'))];
  const out: DemoQuestion[] = [];
  for (const kind of kinds) {
    if (out.length >= count) break;
    const question = demoQuestion(kind, table, ctx, rng);
    if (question && !out.some((q) => q.query === question.query)) out.push(question);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Charts and the split on disk.
// ---------------------------------------------------------------------------------------------

/** The annotation file, in ChartQA's shape (`models`, `type`, `general_figure_info`) with our type names. */
export interface DemoAnnotation {
  /** One per series: `x` the category labels in table order, `y` the series' values (null where missing). */
  models: { name: string; x: string[]; y: (number | null)[] }[];
  type: ChartType;
  general_figure_info: {
    title: { text: string };
    x_axis: { label: { text: string } };
    y_axis: { label: { text: string } };
  };
}

export interface DemoChart {
  stem: string;
  type: ChartType;
  title: string;
  header: string[];
  body: string[][];
  /** The table as the importer will read it back. */
  table: DataTable;
  annotation: DemoAnnotation | null;
  questions: (DemoQuestion & { source: QaSource })[];
}

const capitalize = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

function titleOf(rng: Rng, theme: Theme, layout: Layout): string {
  const subject = pick(rng, theme.subjects);
  const year = randInt(rng, 2018, 2023);
  const span = layout.years.length > 0 ? `, ${at(layout.years, 0)} to ${at(layout.years, layout.years.length - 1)}` : '';
  const by = (noun: string) => `${subject} by ${noun}`;
  switch (layout.shape) {
    case 'entity':
      return `${theme.entities.ordered || theme.plainTitle ? subject : by(theme.entities.noun)}, ${year}`;
    case 'time':
      return `${subject} ${theme.focusPrep} ${layout.focus ?? ''}${span}`;
    case 'time-entity':
      return `${by(theme.entities.noun)}${span}`;
    case 'entity-facet':
      return `${by(`${theme.entities.noun} and ${layout.seriesNoun}`)}, ${year}`;
    case 'facet-entity':
      return `${by(layout.rowPool?.noun ?? 'group')}, ${year}`;
    case 'entity-year':
      return layout.years.length === 2 ? `${by(theme.entities.noun)}, ${layout.years.join(' and ')}` : `${by(theme.entities.noun)}${span}`;
    case 'entity-measure':
      return `${subject}, ${year}`;
  }
}

function axisLabels(type: ChartType, theme: Theme, layout: Layout): [string, string] {
  if (type === 'pie' || (type === 'other' && layout.shape === 'entity')) return ['', ''];
  if (layout.shape === 'entity-measure') return [at(layout.series, 0), at(layout.series, 1)];
  const category = layout.time === 'years' ? 'Year' : layout.time === 'months' ? 'Month' : capitalize(layout.rowPool?.noun ?? '');
  return type === 'horizontal_bar' ? [theme.valueHeader, category] : [category, theme.valueHeader];
}

function labelHeaderOf(rng: Rng, theme: Theme, layout: Layout): string {
  const style = rng();
  if (style < 0.65) return 'Characteristic';
  if (style < 0.85) return 'Entity';
  if (layout.time === 'years') return 'Year';
  if (layout.time === 'months') return 'Month';
  return theme.countries && layout.rowPool === theme.entities ? 'Country' : 'Characteristic';
}

const THEMES_BY_TYPE = new Map<ChartType, Theme[]>(CHART_TYPES.map((type) => [type, THEMES.filter((t) => (t.layouts[type]?.length ?? 0) > 0)]));

function buildChart(rng: Rng, type: ChartType, number: string): DemoChart {
  const theme = pick(rng, THEMES_BY_TYPE.get(type) ?? []);
  const shape = pick(rng, theme.layouts[type] ?? []);
  const layout = layOut(rng, theme, type, shape);
  // Named like ChartQA's Statista charts (two_col_*, multi_col_*), but never clashing with them.
  const stem = `demo_${layout.series.length > 1 ? 'multi_col' : 'two_col'}_${number}`;
  const values = makeValues(rng, theme, layout);
  const order = orderRows(rng, type, layout, values);
  // Statista marks preliminary figures with a footnote star, and ChartQA keeps it in the label.
  const lastYear = layout.time === 'years' && rng() < 0.1 ? String(Math.max(...layout.years)) : null;

  const labelHeader = labelHeaderOf(rng, theme, layout);
  const header = [labelHeader, ...layout.series];
  const body = order.map((i) => {
    const label = at(layout.rows, i);
    const cells = at(values, i).map((v, j) => formatCell(v, decimalsOf(theme, j), theme.unit));
    return [label === lastYear ? `${label}*` : label, ...cells];
  });
  if (layout.sum === null && type !== 'pie' && rng() < (layout.series.length > 1 ? 0.35 : 0.15)) {
    punchGaps(rng, body, labelHeader === 'Entity' ? 'nan' : '-');
  }
  const table = tableFromCells(header, body);

  const title = titleOf(rng, theme, layout);
  const [xLabel, yLabel] = axisLabels(type, theme, layout);
  const annotated = rng() >= UNANNOTATED_SHARE || inferChartType(table) !== type;
  const annotation: DemoAnnotation | null = annotated
    ? {
        models: table.series.map((name, j) => ({ name, x: table.rows.map((row) => row.label), y: table.rows.map((row) => row.values[j] ?? null) })),
        type,
        general_figure_info: { title: { text: title }, x_axis: { label: { text: xLabel } }, y_axis: { label: { text: yLabel } } },
      }
    : null;

  const rowPool = layout.rowPool;
  const ctx: QuestionContext = {
    measure: theme.measure,
    rowNoun: layout.time === 'years' ? 'year' : layout.time === 'months' ? 'month' : (rowPool?.noun ?? 'category'),
    rowNounPlural: layout.time === 'years' ? 'years' : layout.time === 'months' ? 'months' : (rowPool?.plural ?? 'categories'),
    seriesNoun: layout.seriesNoun,
    timeRows: layout.time !== null,
    additive: theme.kind !== 'level',
    comparableSeries: shape !== 'entity-measure',
  };
  const questions = demoQuestionsForTable(table, ctx, rng, randInt(rng, 2, 4));
  // ChartQA-M (augmented) questions are mostly plain lookups, so the lookup goes there first.
  const augmented = questions.length % 2 === 0 || rng() < 0.5 ? Math.floor(questions.length / 2) : Math.ceil(questions.length / 2);
  return {
    stem, type, title, header, body, table, annotation,
    questions: questions.map((q, i) => ({ ...q, source: i < augmented ? 'augmented' : 'human' })),
  };
}

/**
 * The charts of a demo split, one at a time (a 20,000-chart split need not sit in memory).
 * The same seed always gives the same charts.
 */
export function* demoCharts({ charts, seed }: { charts: number; seed: number }): Generator<DemoChart> {
  const planRng = mulberry32(seed);
  // The first charts take every type once, so even a small split shows the whole vocabulary.
  const firstTypes = shuffle(planRng, CHART_TYPES);
  const width = Math.max(5, String(charts).length);
  for (let i = 0; i < charts; i++) {
    const type = firstTypes[i] ?? weightedType(planRng);
    yield buildChart(mulberry32(chartSeed(seed, i)), type, String(i + 1).padStart(width, '0'));
  }
}

export interface DemoSplitOptions {
  dir: string;
  split?: string;
  charts?: number;
  seed?: number;
}

export interface DemoSplitResult {
  charts: number;
  qas: number;
  dir: string;
}

const SPLIT_NAME = /^[A-Za-z0-9][\w.-]*$/;

/**
 * Writes a demo split in ChartQA's layout: `tables/<stem>.csv`, `annotations/<stem>.json` for
 * most charts, `<split>_human.json` and `<split>_augmented.json`; no `png/` (the server
 * renders charts from their tables). Files of the same name are overwritten; nothing else in
 * `dir` is touched. Same options → same bytes.
 */
export function generateDemoSplit({ dir, split = 'demo', charts = 60, seed = 1 }: DemoSplitOptions): DemoSplitResult {
  if (!Number.isInteger(charts) || charts < 1) throw new RangeError(`charts must be a positive integer, not ${charts}`);
  if (!Number.isInteger(seed)) throw new RangeError(`seed must be an integer, not ${seed}`);
  if (!SPLIT_NAME.test(split)) throw new RangeError(`split "${split}" must be letters, digits, ".", "_" or "-"`);
  const tablesDir = join(dir, 'tables');
  const annotationsDir = join(dir, 'annotations');
  mkdirSync(tablesDir, { recursive: true });
  mkdirSync(annotationsDir, { recursive: true });
  const human: { imgname: string; query: string; label: string }[] = [];
  const augmented: typeof human = [];
  let written = 0;
  for (const chart of demoCharts({ charts, seed })) {
    written++;
    writeFileSync(join(tablesDir, `${chart.stem}.csv`), tableCsv(chart.header, chart.body));
    if (chart.annotation) writeFileSync(join(annotationsDir, `${chart.stem}.json`), JSON.stringify(chart.annotation));
    for (const q of chart.questions) {
      (q.source === 'human' ? human : augmented).push({ imgname: `${chart.stem}.png`, query: q.query, label: q.label });
    }
  }
  // As in ChartQA: the human file on one line, the augmented file tab-indented.
  writeFileSync(join(dir, `${split}_human.json`), JSON.stringify(human));
  writeFileSync(join(dir, `${split}_augmented.json`), JSON.stringify(augmented, null, '\t'));
  return { charts: written, qas: human.length + augmented.length, dir };
}
