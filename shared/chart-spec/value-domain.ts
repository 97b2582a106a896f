import type { ChartType } from '../domain/chart-types';
import type { DataTable } from '../table/model';
import { arrangeTable } from './chart-context';
import { chartData, drawsTransposed, transposeTable } from './chart-data';
import { longestLength } from './chart-style';
import type { DrawingStyle } from './drawing-style';

/**
 * One value axis for two drawings of a chart (the original table and the edited one): each
 * drawing alone would fit its axis to its own values, and "double every value" would then look
 * exactly like the original. Drawn on the same axis, doubled bars are twice as long.
 */

/** Ends of a value axis, smallest first; Vega rounds them outwards to nice numbers. */
export type AxisDomain = [number, number];

export interface ValueDomain {
  /** The value axis: bar lengths, line and area heights, a scatter's vertical measure. */
  value: AxisDomain;
  /** A scatter's horizontal measure (its first series). */
  across?: AxisDomain;
  /** The longest value label of the tables, in characters: the room kept past bars' ends for it. */
  labelChars: number;
}

/** A growing extent of values; empty until a value is added. */
class Extent {
  private low = Infinity;
  private high = -Infinity;

  add(...values: number[]): this {
    for (const value of values) {
      this.low = Math.min(this.low, value);
      this.high = Math.max(this.high, value);
    }
    return this;
  }

  /** The extent, widened a little where all values are one (Vega cannot space ticks over a point). */
  domain(): AxisDomain | null {
    if (this.low > this.high) return null;
    if (this.low < this.high) return [this.low, this.high];
    const pad = Math.abs(this.low) / 10 || 1;
    return [this.low - pad, this.high + pad];
  }
}

/**
 * The value axis that covers every one of `tables` drawn as `chartType`, as the chart
 * families draw it: stacked bars to their stack totals (positive and negative stacks apart),
 * other bars, areas and single-series points from zero, lines and scatters around their
 * values alone. Null for pies (no axis) and tables without a value.
 */
export function comparedValueDomain(tables: readonly DataTable[], chartType: ChartType, style: DrawingStyle | null = null): ValueDomain | null {
  if (chartType === 'pie') return null;
  // The tables as the spec draws them: a scatter's measures are its first two series in the drawn order.
  const drawn = tables.map((table) => arrangeTable(drawsTransposed(table, chartType) ? transposeTable(table) : table, style));
  const value = new Extent();
  const across = new Extent();
  for (const table of drawn) {
    if (chartType === 'scatter' && table.series.length > 1) {
      for (const row of table.rows) {
        const [x, y] = row.values;
        if (x !== null && x !== undefined && y !== null && y !== undefined) {
          across.add(x);
          value.add(y);
        }
      }
      continue;
    }
    if (chartType !== 'line') value.add(0);
    for (const row of table.rows) {
      const present = row.values.filter((v): v is number => v !== null);
      if (chartType === 'stacked_bar') value.add(sum(present.filter((v) => v > 0)), sum(present.filter((v) => v < 0)));
      else value.add(...present);
    }
  }
  const valueDomain = value.domain();
  const acrossDomain = across.domain();
  if (valueDomain === null) return null;
  const labelChars = longestLength(drawn.flatMap((table) => chartData(table).map((d) => d.text)));
  return acrossDomain === null ? { value: valueDomain, labelChars } : { value: valueDomain, across: acrossDomain, labelChars };
}

function sum(values: number[]): number {
  return values.reduce((total, v) => total + v, 0);
}
