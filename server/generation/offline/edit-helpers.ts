import { BOUNDED_POINTS } from '../../../shared/generation/proposal-constraints';
import type { Edit, EditOp } from '../../../shared/table/edit';
import type { IntentKind, Intent } from '../../../shared/generation/proposal-intent';
import { fmt, nameOf, niceAmount, roundTo } from './phrasing';
import type { Rng } from './rng';
import { valueOf, type ColumnFacts, type TableFacts } from '../../../shared/table/table-facts';
import { wholeColumn } from '../../../shared/table/wholes';

/** What every edit builder gets: the table's facts, the column and row to change, a partner row, the proposal's intent. */
export interface PlanInput {
  facts: TableFacts;
  column: ColumnFacts;
  row: string;
  /** Another row of the column with a different value, when the table has one. */
  partner: string | null;
  intent: Intent;
  rng: Rng;
  /** Rows the question reads (balance takes from or gives to them only when no other row can); empty when unknown. */
  questionRows?: readonly string[];
  /** A second try on the row after the first was refused: the least default amount. */
  modest?: boolean;
  /** A second try of a scaling of whole numbers: each value rounded (a count stays a count). */
  rounded?: boolean;
}

/** A concrete change: the edit, the sentence that assumes it, and what it does in numbers (for the rationale). */
export interface PlanDraft {
  kind: IntentKind;
  edit: Edit;
  assumption: string;
  effect: string;
}

/** Float noise from `v * f` must not reach sentences or sums. */
export function clean(value: number): number {
  return roundTo(value, 9);
}

export function isMulti(facts: TableFacts): boolean {
  return facts.table.series.length > 1;
}

export function measure(column: ColumnFacts): string {
  return column.percent ? 'share' : 'value';
}

/** "the value of Germany", "the share of Yes", "the value of Albania for 2010". */
export function subject(input: PlanInput, label = input.row): string {
  const base = `the ${measure(input.column)} of ${nameOf(label)}`;
  return isMulti(input.facts) ? `${base} for ${nameOf(input.column.name)}` : base;
}

/** A value as a sentence shows it: `42`, `16%`. */
export function valueText(column: ColumnFacts, value: number): string {
  return `${fmt(value)}${column.percent ? '%' : ''}`;
}

/** An amount of change: `10`, `10 percentage points`. */
export function amountText(column: ColumnFacts, amount: number): string {
  return column.percent ? `${fmt(amount)} percentage points` : fmt(amount);
}

/** "Germany goes from 42 to 84". */
export function changeText(column: ColumnFacts, label: string, before: number, after: number): string {
  return `${nameOf(label)} goes from ${valueText(column, before)} to ${valueText(column, after)}`;
}

/**
 * Whether a new value keeps the column's structure: shares within 0–100, no negative amounts
 * where there were none. (Whether counts stay whole is the lint's call: the planner rejects
 * its count_not_integer warning, and a revenue of 42 may well become 46.2.)
 */
export function fits(column: ColumnFacts, value: number): boolean {
  if (!Number.isFinite(value)) return false;
  if (column.share && (value < 0 || value > 100)) return false;
  return !(column.nonNegative && value < 0);
}

/**
 * The proposal's own number when it suits the column: points only for percentages, and a
 * plain number only when it is not negligible next to the column's values (5 added to ten
 * million changes nothing a chart shows).
 */
export function givenAmount(input: PlanInput): number | null {
  const { amount, amountInPoints } = input.intent;
  const { column } = input;
  if (amount === null) return null;
  if (column.percent || amount === 0) return amount;
  if (amountInPoints) return null;
  const mean = column.cells.reduce((n, cell) => n + Math.abs(cell.value), 0) / column.cells.length;
  return amount >= mean * NEGLIGIBLE_SHARE ? amount : null;
}

/**
 * The largest amount a value may move by under the proposal's bound (reviewers' "changing no
 * value by more than 20 percent"): a share by the bound's points, any other value by the bound
 * times itself; Infinity without a bound.
 */
export function boundedAmount(input: PlanInput, base: number): number {
  const bound = input.intent.maxChange;
  if (bound === null) return Number.POSITIVE_INFINITY;
  return input.column.percent ? BOUNDED_POINTS : bound * Math.abs(base);
}

/** A factor brought within the proposal's bound (a tripling becomes ×1.2), or as it was. */
export function boundedFactor(input: PlanInput, factor: number): number {
  const bound = input.intent.maxChange;
  if (bound === null || Math.abs(factor - 1) <= bound) return factor;
  return factor > 1 ? 1 + bound : 1 - bound;
}

/** A proposal's number below this share of the column's mean is too small to matter. */
const NEGLIGIBLE_SHARE = 0.01;

/** A default amount of change for a value: points for percentages, a round share of the value otherwise. */
export function defaultAmount(input: PlanInput, base: number): number {
  const { column, rng } = input;
  // Over time, one point moves as the series has moved (the checks refuse a jump far past its largest step).
  const cap = column.step !== null && column.step > 0 ? TIME_STEP_SHARE * column.step : Number.POSITIVE_INFINITY;
  // A modest retry takes the least a change should: 2 points of a share, a tenth of a value.
  if (column.percent) return niceAmount(Math.min(input.modest ? 2 : ([2, 5, 10][Math.floor(rng() * 3)] ?? 5), cap), column.decimals);
  const fraction = input.modest ? MODEST_FRACTION : ([0.2, 0.3, 0.5][Math.floor(rng() * 3)] ?? 0.3);
  const mean = column.cells.reduce((n, cell) => n + Math.abs(cell.value), 0) / column.cells.length;
  const size = Math.abs(base) > 0 ? Math.abs(base) * fraction : mean * fraction;
  return niceAmount(Math.min(size, input.modest ? cap / 2 : cap), column.integer ? 0 : column.decimals);
}

/** The share of a value a modest retry moves it by. */
const MODEST_FRACTION = 0.1;

/** A default change of one point over time: this many times the series' largest step between periods. */
const TIME_STEP_SHARE = 1.2;

export interface Balance {
  ops: EditOp[];
  /** Appended to the assumption: ", the 16 points coming from No". */
  clause: string;
  /** Appended to the effect: " and No from 73% to 57%". */
  effect: string;
}

/**
 * Keeps a whole whole: when a pie slice (or a segment of a 100% bar) changes by `delta`,
 * another slice (segment) changes by `-delta`. Null when no other cell can absorb it; an
 * empty balance when the column has no total to keep. `keep` names a row that must not take
 * the balance: the one a value was set equal to ("the same as Housing"), which would then differ.
 * A row the question reads takes it only when it is the partner and no other row can.
 */
export function balance(input: PlanInput, row: string, delta: number, keep: string | null = null): Balance | null {
  const { facts, column } = input;
  if (column.whole) {
    const byNeed = [...column.cells].sort((a, b) => (delta > 0 ? b.value - a.value : a.value - b.value)).map((cell) => cell.label);
    // "Lower the largest until it falls below the smallest": the smallest is the mark, not the
    // one that takes the freed share (else it moves and the item does more than its proposal).
    const takers = input.intent.overtake ? byNeed.filter((label) => label !== input.partner) : [input.partner, ...byNeed];
    const asked = new Set(input.questionRows ?? []);
    const candidates = unique(takers).filter((other): other is string => other !== null && other !== row && other !== keep);
    // A row the question reads never takes the balance while another row can: the answer would
    // move by the bookkeeping clause, not by the proposal's operation ("double the smallest
    // share, the 7 points coming from" the slice asked about). Only when no other row can take
    // it does the partner, asked or not, still balance the change.
    const fallback = input.partner !== null && candidates.includes(input.partner) ? [input.partner] : [];
    const taker = candidates.find((other) => !asked.has(other) && absorbs(column, other, delta)) ?? fallback.find((other) => absorbs(column, other, delta));
    const before = taker === undefined ? null : valueOf(column, taker);
    if (taker === undefined || before === null) return null;
    return {
      ops: [{ op: 'add', row: taker, series: column.name, delta: clean(-delta) }],
      clause: delta > 0 ? `, the ${fmt(clean(delta))} points coming from ${nameOf(taker)}` : `, the ${fmt(clean(-delta))} points going to ${nameOf(taker)}`,
      effect: ` and ${changeText(column, taker, before, clean(before - delta))}`,
    };
  }
  // A 100% bar keeps its 100; any stacked bar keeps its total when the proposal says to rebalance it.
  if (facts.rowWhole || (input.intent.keepTotal && input.intent.withinRow && isMulti(facts))) {
    const others = facts.columns
      .filter((other) => other !== column)
      .map((other) => ({ other, before: valueOf(other, row) }))
      .filter((entry): entry is { other: ColumnFacts; before: number } => entry.before !== null)
      .sort((a, b) => (delta > 0 ? b.before - a.before : a.before - b.before));
    for (const { other, before } of others) {
      if (!fits(other, clean(before - delta))) continue;
      return {
        ops: [{ op: 'add', row, series: other.name, delta: clean(-delta) }],
        clause: facts.rowWhole
          ? delta > 0
            ? `, the points taken from its ${nameOf(other.name)} segment`
            : `, the freed points going to its ${nameOf(other.name)} segment`
          : `, its ${nameOf(other.name)} segment ${delta > 0 ? 'losing' : 'gaining'} the same ${fmt(clean(Math.abs(delta)))} so the bar's total stays ${fmt(clean(rowTotal(facts, row)))}`,
        effect: ` and its ${nameOf(other.name)} segment from ${valueText(other, before)} to ${valueText(other, clean(before - delta))}`,
      };
    }
    return null;
  }
  return totalsFollow(input, row, delta);
}

/**
 * A Total row, or a NET series, is the sum of its parts: the part's change is added to it in
 * the same edit, and the assumption says so. Null when the changed cell is a total itself.
 */
function totalsFollow(input: PlanInput, row: string, delta: number): Balance | null {
  const { facts, column } = input;
  if (row === facts.totalRow || facts.totals.some((t) => t.total === column.name)) return null;
  const ops: EditOp[] = [];
  const names: string[] = [];
  if (facts.totalRow !== null && valueOf(column, row) !== null && facts.table.rows.some((r) => r.label === facts.totalRow)) {
    ops.push({ op: 'add', row: facts.totalRow, series: column.name, delta: clean(delta) });
    names.push(nameOf(facts.totalRow));
  }
  for (const t of facts.totals.filter((entry) => entry.parts.includes(column.name))) {
    ops.push({ op: 'add', row, series: t.total, delta: clean(delta) });
    names.push(nameOf(t.total));
  }
  // A whole the other series lie within ("Total market" over "Domestic market"): a part that
  // moves while its whole stands still moves the unshown rest the other way, so the whole follows.
  const w = wholeColumn(facts.table);
  const whole = w === null ? null : (facts.table.series[w] ?? null);
  const wholeCell = whole === null ? null : (facts.table.rows.find((r) => r.label === row)?.values[w ?? -1] ?? null);
  if (whole !== null && whole !== column.name && wholeCell !== null && !facts.totals.some((t) => t.total === whole)) {
    ops.push({ op: 'add', row, series: whole, delta: clean(delta) });
    names.push(nameOf(whole));
  }
  if (ops.length === 0) return { ops: [], clause: '', effect: '' };
  return { ops, clause: `, and ${names.join(' and ')} with it`, effect: ` (${names.join(' and ')} changing by the same amount)` };
}

/** Whether the row has a value that can give up `delta` (or take `-delta`) and still fit the column. */
function absorbs(column: ColumnFacts, label: string, delta: number): boolean {
  const before = valueOf(column, label);
  return before !== null && fits(column, clean(before - delta));
}

export function unique<T>(items: readonly T[]): T[] {
  return [...new Set(items)];
}

/** The sum of one row's values across the series (a stacked bar's height). */
function rowTotal(facts: TableFacts, row: string): number {
  return facts.columns.reduce((sum, column) => sum + (valueOf(column, row) ?? 0), 0);
}
