import { orderKey, periodOrder } from '../../../shared/table/axis-order';
import type { EditOp } from '../../../shared/table/edit';
import {
  changeText,
  clean,
  fits,
  givenAmount,
  isMulti,
  measure,
  amountText,
  valueText,
  type PlanDraft,
  type PlanInput,
} from './edit-helpers';
import { newRowLabel } from './new-row-label';
import { fmt, nameOf, niceAmount, roundTo } from './phrasing';
import { pick } from './rng';
import { valueOf, type ColumnFacts } from '../../../shared/table/table-facts';

/** Builders that change the rows themselves: remove one, add one, or redraw a series as a straight line. */

/** Points a new slice takes by default. */
const DEFAULT_POINTS = [2, 5, 10];

export function removeRow(input: PlanInput): PlanDraft | null {
  const { facts, column, row, partner } = input;
  const before = valueOf(column, row);
  if (before === null || facts.table.rows.length < 3) return null;
  if (column.whole) {
    const heir = partner === null ? null : valueOf(column, partner);
    if (partner === null || heir === null || !fits(column, clean(heir + before))) return null;
    const part = facts.chartType === 'pie' ? 'slice' : facts.rowNoun;
    return {
      kind: 'remove_row',
      edit: [
        { op: 'remove_row', row },
        { op: 'add', row: partner, series: column.name, delta: before },
      ],
      assumption: `Suppose the ${nameOf(row)} ${part} were removed and its ${fmt(before)} points added to ${nameOf(partner)}.`,
      effect: `${nameOf(row)} (${valueText(column, before)}) disappears and ${changeText(column, partner, heir, clean(heir + before))}`,
    };
  }
  return {
    kind: 'remove_row',
    edit: [{ op: 'remove_row', row }],
    assumption: `Suppose ${nameOf(row)} were removed from the chart.`,
    effect: `${nameOf(row)} (${valueText(column, before)}${isMulti(facts) ? ` in ${nameOf(column.name)}` : ''}) is no longer in the chart`,
  };
}

/** A whole series leaves the chart (a legend entry, a layer, one line). */
export function removeSeries(input: PlanInput): PlanDraft | null {
  const { facts, column } = input;
  if (facts.table.series.length < 2 || facts.rowWhole) return null;
  return {
    kind: 'remove_series',
    edit: [{ op: 'remove_series', series: column.name }],
    assumption: `Suppose the ${nameOf(column.name)} series were removed from the chart.`,
    effect: `the ${column.cells.length} values of ${nameOf(column.name)} are no longer in the chart`,
  };
}

export function addRow(input: PlanInput): PlanDraft | null {
  const { facts, column, row, rng } = input;
  const label = newRowLabel(facts);
  if (label === null) return null;
  const noun = facts.chartType === 'pie' ? 'slice' : facts.rowNoun;
  if (facts.rowWhole) {
    const source = facts.table.rows.find((r) => r.label === row);
    if (!source) return null;
    const values = Object.fromEntries(facts.table.series.map((name, s) => [name, source.values[s] ?? null]).filter(([, v]) => v !== null));
    return {
      kind: 'add_row',
      edit: [{ op: 'add_row', row: label, values }],
      assumption: `Suppose a new ${noun}, "${label}", were added with the same split as ${nameOf(row)}.`,
      effect: `${nameOf(label)} joins the chart with ${nameOf(row)}'s values`,
    };
  }
  if (column.whole) {
    // The new part is carved out of the row the proposal names, so the whole still sums to 100.
    // A part "at the average" or "above the maximum" would need every other part to shrink.
    if (input.intent.average || input.intent.overtake || input.intent.selectors.includes('max')) return null;
    const donor = valueOf(column, row);
    const points = givenAmount(input) ?? pick(rng, DEFAULT_POINTS);
    if (donor === null || !(points > 0) || !fits(column, clean(donor - points))) return null;
    return {
      kind: 'add_row',
      edit: [
        { op: 'add_row', row: label, values: { [column.name]: points } },
        { op: 'add', row, series: column.name, delta: -points },
      ],
      assumption: `Suppose a new ${noun}, "${label}", of ${fmt(points)}% were added, its points taken from ${nameOf(row)}.`,
      effect: `${nameOf(label)} appears with ${fmt(points)}% and ${changeText(column, row, donor, clean(donor - points))}`,
    };
  }
  const values: Record<string, number> = {};
  for (const other of facts.columns) {
    const value = newRowValue(input, other, other === column ? givenAmount(input) : null, other === column);
    if (value === null) return null;
    values[other.name] = value;
  }
  const parts = facts.columns.map((other) => `${valueText(other, values[other.name] ?? 0)}${isMulti(facts) ? ` for ${nameOf(other.name)}` : ''}`);
  const withValues = parts.length === 1 ? `a ${measure(column)} of ${parts[0]}` : `values of ${parts.join(', ')}`;
  return {
    kind: 'add_row',
    edit: [{ op: 'add_row', row: label, values }],
    assumption: facts.timeAxis || periodOrder(facts.table.rows.map((r) => r.label)) !== null
      ? `Suppose the chart also showed ${nameOf(label)}, with ${withValues}.`
      : `Suppose a new ${noun}, "${label}", were added to the chart with ${withValues}.`,
    effect: `${nameOf(label)} joins the chart with ${withValues}`,
  };
}

/** The last period's value plus the last step (2·last − previous), on labels that are periods; else null. */
function continuedValue(input: PlanInput, column: ColumnFacts): number | null {
  const order = periodOrder(input.facts.table.rows.map((row) => row.label));
  if (order === null) return null;
  const byTime = order.map((label) => valueOf(column, label)).filter((value): value is number => value !== null);
  const last = byTime[byTime.length - 1];
  const previous = byTime[byTime.length - 2];
  if (last === undefined || previous === undefined) return null;
  return roundTo(2 * last - previous, column.integer ? 0 : column.decimals);
}

/** A new row's value: the proposal's number, the mean when the proposal says "at the average", the trend continued on a time axis, else above the top, the mean, or below the bottom (as the proposal says, else at random). */
function newRowValue(input: PlanInput, column: ColumnFacts, given: number | null, focus: boolean): number | null {
  const decimals = column.integer ? 0 : column.decimals;
  const values = column.cells.map((cell) => cell.value);
  const mean = roundTo(values.reduce((a, b) => a + b, 0) / values.length, decimals);
  let value: number;
  const continued = continuedValue(input, column);
  // "Repeats the last change" fixes every column's value: a number the proposal names would be another operation.
  if (input.intent.continues) {
    if (continued === null) return null;
    value = continued;
  } else if (given !== null) value = given;
  // "At the average" holds for every column of the new row, on a time axis too (not the trend continued).
  else if (input.intent.average) value = mean;
  else if (continued !== null) value = continued;
  else {
    const { intent } = input;
    const max = Math.max(...values);
    let choice = focus ? input.rng() : 0.5;
    if (focus && (intent.overtake || intent.selectors.includes('max'))) choice = 0;
    else if (focus && intent.selectors.includes('min')) choice = 1;
    if (choice < 0.4) value = clean(max + niceAmount(Math.abs(max) * 0.1, decimals));
    else if (choice < 0.8) value = mean;
    else value = roundTo(Math.min(...values) / 2, decimals);
  }
  return fits(column, value) ? value : null;
}

/** Every period after the first grows by the same step: a straight line from the first value. */
export function trend(input: PlanInput): PlanDraft | null {
  const { facts, column, intent } = input;
  if (!facts.timeAxis || column.whole || facts.rowWhole || column.cells.length < 3) return null;
  const byTime = [...column.cells].sort((a, b) => (orderKey(a.label) ?? 0) - (orderKey(b.label) ?? 0));
  const first = byTime[0];
  const last = byTime[byTime.length - 1];
  if (!first || !last || byTime.length > 50) return null;
  const decimals = column.integer ? 0 : column.decimals;
  // Periods are the axis's rows, a year with no number included: "a constant 0.4 every period"
  // must hold for a reader counting the years on the chart, so a gap still counts as a step.
  const periods = [...facts.table.rows].map((row) => row.label).sort((a, b) => (orderKey(a) ?? 0) - (orderKey(b) ?? 0));
  const period = (label: string) => periods.indexOf(label) - periods.indexOf(first.label);
  const meanStep = Math.abs(last.value - first.value) / Math.max(1, period(last.label));
  const step = intent.sign * (givenAmount(input) ?? niceAmount(meanStep > 0 ? meanStep : Math.abs(first.value) * 0.1, decimals));
  const ops: EditOp[] = [];
  for (const cell of byTime) {
    const i = period(cell.label);
    const value = clean(first.value + step * i);
    if (!fits(column, value)) return null;
    if (i > 0 && value !== cell.value) ops.push({ op: 'set', row: cell.label, series: column.name, value });
  }
  if (ops.length === 0) return null;
  const which = isMulti(facts) ? `the ${nameOf(column.name)} series` : `the ${measure(column)}`;
  const finalValue = clean(first.value + step * period(last.label));
  return {
    kind: 'trend',
    edit: ops,
    assumption: `Suppose ${which} had ${step > 0 ? 'grown' : 'fallen'} by a constant ${amountText(column, Math.abs(step))} every period after ${nameOf(first.label)} (starting from ${valueText(column, first.value)}).`,
    effect: `${which} then runs in equal steps from ${valueText(column, first.value)} in ${nameOf(first.label)} to ${valueText(column, finalValue)} in ${nameOf(last.label)}`,
  };
}
