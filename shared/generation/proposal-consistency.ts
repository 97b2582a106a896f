import { z } from 'zod';
import type { ChartType } from '../domain/chart-types';
import { orderKey, periodOrder } from '../table/axis-order';
import { applyEdit, labelText } from '../table/edit-apply';
import type { Edit, EditOp, EditOpName } from '../table/edit';
import { labelsMatch } from '../table/labels';
import type { DataTable } from '../table/model';
import { categoryTotals, selectRow, tableFacts, valueOf, type ColumnFacts, type TableFacts } from '../table/table-facts';
import { INTENT_KINDS, parseIntent, ROW_SELECTORS, type Intent, type IntentKind, type RowSelector } from './proposal-intent';

/**
 * Does an item do what its proposal says? A proposal names an operation ("halve the largest
 * bar"); its item's edit must perform it — the right kind of op, on the kind of object the
 * proposal names (one row, every row), on the row its rank names, in its direction. Without
 * this, a proposal's pass rate says nothing about the proposal.
 */

export const EDIT_OP_NAMES = ['set', 'scale', 'add', 'swap', 'remove_row', 'remove_series', 'add_row'] as const satisfies readonly EditOpName[];

export const ProposalOperationSchema = z.object({
  /** The operation the proposal's words name; null when the words name none the rules know. */
  kind: z.enum(INTENT_KINDS).nullable(),
  /** Edit ops an item of this proposal may use (the balancing `add` of a pie or 100% bar included). */
  ops: z.array(z.enum(EDIT_OP_NAMES)),
  /** What it acts on: one row (bar, slice, point), every row of a series, or a new row. */
  scope: z.enum(['row', 'every_row', 'new_row']).nullable(),
  /** Rows named by rank or position, in order of mention ("largest", "first"). */
  selectors: z.array(z.enum(ROW_SELECTORS)),
});
export type ProposalOperation = z.infer<typeof ProposalOperationSchema>;

/** The ops that perform each operation; `add` is always allowed beside them to keep a whole at 100. */
const PRIMARY_OPS: Record<IntentKind, EditOpName[]> = {
  // A change of one value may be written as a factor, a delta or the new value.
  scale: ['scale', 'add', 'set'],
  add: ['add', 'scale', 'set'],
  set: ['set', 'add', 'scale'],
  move: ['add', 'set'],
  swap: ['swap', 'set'],
  swap_series: ['set', 'swap'],
  remove_row: ['remove_row'],
  remove_series: ['remove_series'],
  add_row: ['add_row'],
  trend: ['set', 'add'],
};

export function proposalOperation(text: string): ProposalOperation {
  const intent = parseIntent(text);
  return operationOf(intent);
}

function operationOf(intent: Intent): ProposalOperation {
  if (intent.kind === null) return { kind: null, ops: [], scope: null, selectors: intent.selectors };
  const ops = [...new Set<EditOpName>([...PRIMARY_OPS[intent.kind], 'add'])];
  const scope = intent.kind === 'add_row' ? 'new_row' : intent.kind === 'remove_series' || (intent.everyRow && ['scale', 'add'].includes(intent.kind)) ? 'every_row' : 'row';
  return { kind: intent.kind, ops, scope, selectors: intent.selectors };
}

export type Consistency = { consistent: boolean; message: string } | { consistent: null; message: string };

/**
 * Checks an edit against its proposal on the original table. `consistent: null` when the
 * proposal's words name no operation the rules read (nothing to hold the item to).
 */
export function checkProposalConsistency(proposalText: string, chartType: ChartType, original: DataTable, edit: Edit): Consistency {
  const intent = parseIntent(proposalText);
  const kind = intent.kind;
  if (kind === null) return { consistent: null, message: 'the proposal names no operation the rules can read' };
  if (edit.length === 0) return { consistent: false, message: `the proposal asks to ${describeKind(kind)}, but the edit changes nothing` };
  const allowed = new Set(operationOf(intent).ops);
  const foreign = edit.filter((op) => !allowed.has(op.op));
  if (foreign.length > 0) {
    return { consistent: false, message: `the proposal asks to ${describeKind(kind)}, but the edit uses ${[...new Set(foreign.map((op) => op.op))].join(', ')}` };
  }
  const primary = edit.find((op) => PRIMARY_OPS[kind].includes(op.op) && op.op !== 'add') ?? edit[0];
  if (!primary) return { consistent: false, message: 'the edit has no operation' };
  const shape = shapeProblem(kind, edit) ?? (intent.oneSeries && edit.some((op) => op.op === 'swap' && op.series === undefined) ? 'the edit swaps whole rows, every series included' : null);
  if (shape) return { consistent: false, message: `the proposal asks to ${describeKind(kind)}, but ${shape}` };
  if (intent.everyRow && (kind === 'scale' || kind === 'add')) {
    const wide = edit.some((op) => (op.op === 'scale' || op.op === 'add') && op.row === undefined) || roundedScale(intent, edit, original);
    if (!wide) return { consistent: false, message: 'the proposal changes every row of a series, but the edit changes single cells' };
    const overtake = overtakeProblem(intent, original, edit);
    if (overtake) return { consistent: false, message: overtake };
    return { consistent: true, message: 'the edit changes every row, as the proposal says' };
  }
  const facts = tableFacts(original, chartType, '');
  const average = averageProblem(intent, edit, facts) ?? continuesProblem(intent, edit, facts);
  if (average) return { consistent: false, message: average };
  const axis = axisProblem(intent, edit, original);
  if (axis) return { consistent: false, message: axis };
  const direction = directionProblem(intent, primary, facts);
  if (direction) return { consistent: false, message: direction };
  const selected = selectorProblem(intent, kind, edit, facts) ?? neighbourProblem(intent, kind, edit, facts);
  if (selected) return { consistent: false, message: selected };
  return { consistent: true, message: `the edit performs the proposal's operation (${describeKind(kind)})` };
}

/**
 * "Increase every bar by 20 percent" on whole numbers, each rounded: one series' every row set to
 * its value times the factor, within the rounding.
 */
function roundedScale(intent: Intent, edit: Edit, original: DataTable): boolean {
  if (intent.kind !== 'scale' || intent.factor === null || edit.length === 0 || !edit.every((op) => op.op === 'set')) return false;
  const series = new Set(edit.map((op) => (op.op === 'set' && op.series !== undefined ? labelText(op.series) : '')));
  if (series.size !== 1) return false;
  const [name] = [...series];
  // A set on a one-series table names no series (a bar chart's "every bar").
  const s = name === '' && original.series.length === 1 ? 0 : original.series.findIndex((each) => labelsMatch(each, name ?? ''));
  if (s === -1) return false;
  const filled = original.rows.filter((row) => row.values[s] !== null && row.values[s] !== undefined);
  const factor = intent.factor;
  return (
    edit.length === filled.length &&
    edit.every((op) => {
      if (op.op !== 'set') return false;
      const row = filled.find((r) => labelsMatch(r.label, labelText(op.row)));
      const before = row?.values[s];
      return before !== null && before !== undefined && Math.abs(op.value - before * factor) <= 0.5 + 1e-9;
    })
  );
}

/**
 * "Shift one line up … so that it overtakes another line": in some period the moved line was
 * below another and is above it now. A shift too small to pass any line is another operation.
 */
function overtakeProblem(intent: Intent, original: DataTable, edit: Edit): string | null {
  if (!intent.overtakeSeries) return null;
  const applied = applyEdit(original, edit);
  if (!applied.ok) return null;
  const edited = applied.table;
  const moved = original.series.flatMap((_, s) => (original.rows.some((row, r) => row.values[s] !== edited.rows[r]?.values[s]) ? [s] : []));
  if (moved.length !== 1 || moved[0] === undefined) return null;
  const m = moved[0];
  const passes = original.series.some((_, other) =>
    other !== m && original.rows.some((row, r) => {
      const [was, wasOther, now, nowOther] = [row.values[m], row.values[other], edited.rows[r]?.values[m], edited.rows[r]?.values[other]];
      return was != null && wasOther != null && now != null && nowOther != null && was < wasOther && now > nowOther;
    }),
  );
  return passes ? null : `the proposal moves a line so that it overtakes another, but the moved line (${JSON.stringify(original.series[m])}) passes no other line in any period`;
}

function describeKind(kind: IntentKind): string {
  const words: Record<IntentKind, string> = {
    scale: 'scale a value',
    add: 'raise or lower a value',
    set: 'set a value',
    move: 'move an amount between two parts',
    swap: 'swap two values',
    swap_series: 'swap two series within a category',
    remove_row: 'remove a category',
    remove_series: 'remove a series',
    add_row: 'add a new category',
    trend: 'redraw the series as a steady trend',
  };
  return words[kind];
}

/** Operations that need a certain op: a removal removes, an addition adds, a swap exchanges two values. */
function shapeProblem(kind: IntentKind, edit: Edit): string | null {
  const has = (name: EditOpName) => edit.some((op) => op.op === name);
  if (kind === 'remove_row' && !has('remove_row')) return 'the edit removes no row';
  if (kind === 'remove_series' && !has('remove_series')) return 'the edit removes no series';
  if (kind === 'add_row' && !has('add_row')) return 'the edit adds no row';
  if ((kind === 'swap' || kind === 'swap_series') && !has('swap') && edit.filter((op) => op.op === 'set').length < 2) return 'the edit exchanges no two values';
  if (kind === 'move') {
    const deltas = edit.flatMap((op) => (op.op === 'add' ? [op.delta] : []));
    if (!(deltas.some((d) => d > 0) && deltas.some((d) => d < 0)) && edit.filter((op) => op.op === 'set').length < 2) {
      return 'the edit does not take an amount from one part and give it to another';
    }
  }
  return null;
}

/**
 * "Add a new point at the average": each value of the new row is its column's mean over the
 * original rows, to within the column's own rounding (or 1%, for a mean the model wrote rounded).
 */
function averageProblem(intent: Intent, edit: Edit, facts: TableFacts): string | null {
  if (intent.kind !== 'add_row' || !intent.average) return null;
  for (const op of edit) {
    if (op.op !== 'add_row') continue;
    const entries: [string | undefined, number | null][] = typeof op.values === 'number' ? [[undefined, op.values]] : Object.entries(op.values);
    for (const [series, value] of entries) {
      const column = columnFor(facts, series);
      if (!column || column.cells.length === 0 || value === null) continue;
      const mean = column.cells.reduce((sum, cell) => sum + cell.value, 0) / column.cells.length;
      const tolerance = Math.max(10 ** -column.decimals, Math.abs(mean) * 0.01);
      if (Math.abs(value - mean) > tolerance) {
        return `the proposal puts the new row at the average (${formatMean(mean, column.decimals)}${series === undefined ? '' : ` for ${JSON.stringify(series)}`}), but the edit gives it ${value}`;
      }
    }
  }
  return null;
}

/**
 * "One more period that repeats the change between its last two points": each value of the new
 * row is its series' last value plus its last step, to within the column's rounding; on labels
 * that are no periods there is no last change to repeat.
 */
function continuesProblem(intent: Intent, edit: Edit, facts: TableFacts): string | null {
  if (intent.kind !== 'add_row' || !intent.continues) return null;
  const order = periodOrder(facts.table.rows.map((row) => row.label));
  if (order === null) return 'the proposal repeats the last change between two periods, but the chart\'s categories are no periods';
  for (const op of edit) {
    if (op.op !== 'add_row') continue;
    const entries: [string | undefined, number | null][] = typeof op.values === 'number' ? [[undefined, op.values]] : Object.entries(op.values);
    for (const [series, value] of entries) {
      const column = columnFor(facts, series);
      if (!column || value === null) continue;
      const byTime = order.map((label) => valueOf(column, label)).filter((v): v is number => v !== null);
      const [previous, last] = byTime.slice(-2);
      if (previous === undefined || last === undefined) continue;
      const continued = 2 * last - previous;
      if (Math.abs(value - continued) > 10 ** -column.decimals / 2 + 1e-9) {
        return `the proposal repeats the last change (${formatMean(last - previous, column.decimals)}${series === undefined ? '' : ` for ${JSON.stringify(series)}`}: ${formatMean(continued, column.decimals)}), but the edit gives the new period ${value}`;
      }
    }
  }
  return null;
}

function formatMean(mean: number, decimals: number): string {
  return String(Number(mean.toFixed(Math.max(decimals, 2))));
}

/** "The horizontal (x) value": on a table of several series, the edit changes the first series only (the second for vertical / y). */
function axisProblem(intent: Intent, edit: Edit, original: DataTable): string | null {
  if (intent.axis === null || original.series.length < 2) return null;
  const wanted = original.series[intent.axis];
  if (wanted === undefined) return null;
  const touched = edit.map(seriesOf).filter((name): name is string => name !== undefined);
  const foreign = touched.filter((name) => !labelsMatch(name, wanted));
  if (touched.length > 0 && foreign.length === 0) return null;
  return `the proposal changes the ${intent.axis === 0 ? 'horizontal' : 'vertical'} measure (${JSON.stringify(wanted)}), but the edit changes ${foreign.length ? foreign.map((n) => JSON.stringify(n)).join(', ') : 'every series'}`;
}

/** The proposal says "lower" or "halve": the changed value must fall (and rise for "raise", "double"). */
function directionProblem(intent: Intent, op: EditOp, facts: TableFacts): string | null {
  if (intent.kind !== 'scale' && intent.kind !== 'add') return null;
  const wanted = intent.factor !== null && intent.kind === 'scale' ? Math.sign(intent.factor - 1) : intent.sign;
  const moved = changeSign(op, facts);
  if (moved === null || moved === 0 || moved === wanted) return null;
  return `the proposal ${wanted > 0 ? 'raises' : 'lowers'} a value, but the edit ${moved > 0 ? 'raises' : 'lowers'} it`;
}

function changeSign(op: EditOp, facts: TableFacts): number | null {
  if (op.op === 'scale') return Math.sign(op.factor - 1);
  if (op.op === 'add') return Math.sign(op.delta);
  if (op.op === 'set' && op.row !== undefined) {
    const column = columnFor(facts, op.series === undefined ? undefined : labelText(op.series));
    const before = column ? valueOf(column, matchingLabel(column, labelText(op.row)) ?? '') : null;
    return before === null ? null : Math.sign(op.value - before);
  }
  return null;
}

/** The row a rank names must be the row the edit acts on (a tie with it counts). */
function selectorProblem(intent: Intent, kind: IntentKind, edit: Edit, facts: TableFacts): string | null {
  const [first, second] = intent.selectors;
  if (!first || kind === 'add_row' || kind === 'trend' || kind === 'swap_series' || kind === 'remove_series') return null;
  const acted = actedRows(kind, edit);
  if (acted.length === 0) return null;
  const series = edit.map(seriesOf).find((name): name is string => name !== undefined);
  // A removed category is ranked by its total over the series (`rankColumn`); "the tallest bar" may
  // also be the row holding the tallest single bar of any series.
  const totals = kind === 'remove_row' ? categoryTotals(facts) : null;
  if (totals) {
    const overall = (first === 'max' || first === 'min') && acted.some((row) => holdsExtreme(facts, row, first));
    if (overall || acted.some((row) => rowIs(facts, totals, row, first))) return null;
    const expected = selectRow(facts, totals, first);
    return `the proposal names the ${selectorWord(first)} category${expected === null ? '' : ` (${JSON.stringify(expected)}, by its total over the series)`}, but the edit removes ${acted.map((label) => JSON.stringify(label)).join(', ')}`;
  }
  const columns = series !== undefined ? [columnFor(facts, series)].filter((c): c is ColumnFacts => c !== undefined) : facts.columns;
  const wanted = kind === 'swap' && second ? [first, second] : [first];
  for (const column of columns) {
    if (wanted.every((selector) => acted.some((row) => rowIs(facts, column, row, selector)))) return null;
  }
  const column = columns[0];
  const expected = column ? wanted.map((selector) => selectRow(facts, column, selector)).filter((label): label is string => label !== null) : [];
  return `the proposal names the ${wanted.map(selectorWord).join(' and the ')} ${wanted.length > 1 ? 'rows' : 'row'}${
    expected.length ? ` (${expected.map((label) => JSON.stringify(label)).join(', ')})` : ''
  }, but the edit acts on ${acted.map((label) => JSON.stringify(label)).join(', ')}`;
}

/** "With that of the period next to it": the two rows a swap exchanges are neighbours on the axis. */
function neighbourProblem(intent: Intent, kind: IntentKind, edit: Edit, facts: TableFacts): string | null {
  if (!intent.neighbour || kind !== 'swap') return null;
  const [a, b] = actedRows(kind, edit);
  if (a === undefined || b === undefined) return null;
  const labels = facts.table.rows.map((row) => row.label);
  const order = facts.timeAxis ? [...labels].sort((x, y) => (orderKey(x) ?? 0) - (orderKey(y) ?? 0)) : labels;
  const at = (label: string) => order.findIndex((each) => labelsMatch(each, label));
  return Math.abs(at(a) - at(b)) === 1 ? null : `the proposal swaps two neighbouring rows, but ${JSON.stringify(a)} and ${JSON.stringify(b)} are not next to each other`;
}

/** The rows an op of the operation acts on first: a move's source, a swap's pair, a removed row, a changed value's row. */
function actedRows(kind: IntentKind, edit: Edit): string[] {
  if (kind === 'swap') {
    const swap = edit.find((op) => op.op === 'swap');
    if (swap?.op === 'swap') return swap.rows.map(labelText);
    return edit.flatMap((op) => (op.op === 'set' && op.row !== undefined ? [labelText(op.row)] : []));
  }
  if (kind === 'remove_row') return edit.flatMap((op) => (op.op === 'remove_row' ? [labelText(op.row)] : []));
  if (kind === 'move') {
    const source = edit.find((op) => op.op === 'add' && op.delta < 0 && op.row !== undefined);
    return source?.op === 'add' && source.row !== undefined ? [labelText(source.row)] : [];
  }
  const first = edit[0];
  return first && 'row' in first && first.row !== undefined ? [labelText(first.row)] : [];
}

function seriesOf(op: EditOp): string | undefined {
  return 'series' in op && op.series !== undefined ? labelText(op.series) : undefined;
}

function columnFor(facts: TableFacts, series: string | undefined): ColumnFacts | undefined {
  if (series === undefined) return facts.columns.length === 1 || facts.table.series.length === 1 ? facts.columns[0] : undefined;
  return facts.columns.find((column) => labelsMatch(column.name, series));
}

function matchingLabel(column: ColumnFacts, label: string): string | null {
  return column.cells.find((cell) => labelsMatch(cell.label, label))?.label ?? null;
}

function rowIs(facts: TableFacts, column: ColumnFacts, row: string, selector: RowSelector): boolean {
  const expected = selectRow(facts, column, selector);
  const actual = matchingLabel(column, row);
  if (expected === null || actual === null) return false;
  if (expected === actual) return true;
  // Ranks by value tie: any row with the selected value is that rank.
  const byValue = selector !== 'first' && selector !== 'last' && !(selector === 'middle' && facts.timeAxis);
  return byValue && valueOf(column, expected) === valueOf(column, actual);
}

/** Whether `row` holds the largest (or smallest) single value of any series: "the tallest bar" of a grouped chart. */
function holdsExtreme(facts: TableFacts, row: string, selector: 'max' | 'min'): boolean {
  const values = facts.columns.flatMap((column) => column.cells.map((cell) => cell.value));
  if (values.length === 0) return false;
  const extreme = selector === 'max' ? Math.max(...values) : Math.min(...values);
  return facts.columns.some((column) => column.cells.some((cell) => labelsMatch(cell.label, row) && cell.value === extreme));
}

function selectorWord(selector: RowSelector): string {
  const words: Record<RowSelector, string> = {
    max: 'largest',
    min: 'smallest',
    second_max: 'second-largest',
    second_min: 'second-smallest',
    median: 'median',
    middle: 'middle',
    first: 'first',
    last: 'last',
  };
  return words[selector];
}
