import type { ChartType } from '../../shared/domain/chart-types';
import { at, pick, randInt, shuffle, type Rng } from '../../shared/random';
import { MONTHS, type Pool, type Shape, type Theme } from './demo-themes';

/** A demo table's layout: which rows and series it has, and the order its rows are drawn in. */

export interface Layout {
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

export const OTHERS = 'Others';

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

export function layOut(rng: Rng, theme: Theme, type: ChartType, shape: Shape): Layout {
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

/** Orders rows as Statista draws them: rankings largest first with "Others" last; time mostly ascending. */
export function orderRows(rng: Rng, type: ChartType, layout: Layout, values: number[][]): number[] {
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
