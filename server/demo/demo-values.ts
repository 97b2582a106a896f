import { OTHERS, type Layout } from './demo-layout';
import { at, randInt, uniform, type Rng } from '../../shared/random';
import type { Theme } from './demo-themes';

/** A demo table's values, and the cells they are written as. */

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

export function decimalsOf(theme: Theme, column: number): number {
  return typeof theme.decimals === 'number' ? theme.decimals : at(theme.decimals, column);
}

/** rows × series values, rounded to the theme's precision. */
export function makeValues(rng: Rng, theme: Theme, layout: Layout): number[][] {
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

export function formatCell(value: number, decimals: number, unit: string): string {
  return String(Number(value.toFixed(decimals))) + unit;
}

/** Blanks 1–2 cells of a table that is not a share of a whole, never leaving a column under 3 numbers. */
export function punchGaps(rng: Rng, body: string[][], token: string): void {
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
