import { at, pick, randInt } from '../../shared/random';
import {
  formatAnswer,
  fullColumn,
  presentRows,
  presentSeries,
  rowLabel,
  seriesIndexes,
  twoOf,
  uniqueExtreme,
  valueAt,
  wording,
  type Maker,
} from './demo-question-context';

/** The question makers: each writes one kind of question about a table, or null when it cannot. */

export const lookup: Maker = (table, ctx, rng) => {
  const w = wording(table, ctx);
  const cells = seriesIndexes(table).flatMap((s) => presentRows(table, s).map((r) => [r, s] as const));
  if (cells.length === 0) return null;
  const [r, s] = pick(rng, cells);
  return { query: `What ${w.verb} the ${w.col(s)} ${w.prep} ${rowLabel(table, r)}?`, label: formatAnswer(valueAt(table, r, s) ?? 0) };
};

export const columnExtreme = (direction: 'max' | 'min'): Maker => (table, ctx, rng) => {
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

export const seriesExtreme = (direction: 'max' | 'min'): Maker => (table, ctx, rng) => {
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

export const columnPair = (op: 'difference' | 'sum'): Maker => (table, ctx, rng) => {
  if (op === 'sum' && !ctx.additiveAcrossRows) return null;
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

export const seriesPair = (op: 'difference' | 'sum'): Maker => (table, ctx, rng) => {
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

export const average: Maker = (table, ctx, rng) => {
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

export const count: Maker = (table, ctx, rng) => {
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

export const columnCompare: Maker = (table, ctx, rng) => {
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

export const seriesCompare: Maker = (table, ctx, rng) => {
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
