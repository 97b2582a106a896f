import type { ChartType } from '../../../shared/domain/chart-types';
import { orderKey } from '../../../shared/table/axis-order';
import { applyEdit, type CellChange } from '../../../shared/table/edit';
import { lintEdit, type LintCode } from '../../../shared/table/lint';
import type { DataTable } from '../../../shared/table/model';
import { BUILDERS } from './edit-builders';
import { unique, type PlanDraft, type PlanInput } from './edit-helpers';
import type { Intent, IntentKind, RowSelector } from '../../../shared/generation/proposal-intent';
import { shuffled, type Rng } from './rng';
import { rankColumn, rankTied, selectRow, valueOf, type ColumnFacts, type TableFacts } from '../../../shared/table/table-facts';

/** A change the layout lint accepts, with the edited table it gives. */
export interface EditPlan extends PlanDraft {
  column: ColumnFacts;
  row: string;
  partner: string | null;
  edited: DataTable;
  changes: CellChange[];
  added_rows: string[];
  removed_rows: string[];
}

/**
 * What each chart type changes when the proposal's words name no operation, most natural
 * first (a pie moves points between slices; a line shifts a point; grouped bars trade values
 * between series). Also the fallbacks, in order, when the named operation cannot be made.
 */
export const DEFAULT_KINDS: Record<ChartType, IntentKind[]> = {
  pie: ['move', 'swap', 'scale', 'remove_row', 'add_row', 'set'],
  stacked_bar: ['move', 'swap', 'scale', 'add', 'remove_row', 'swap_series'],
  grouped_bar: ['swap_series', 'scale', 'add', 'swap', 'remove_row', 'set'],
  line: ['add', 'scale', 'set', 'trend', 'add_row', 'swap'],
  area: ['add', 'scale', 'trend', 'set', 'add_row', 'swap'],
  vertical_bar: ['scale', 'add', 'set', 'swap', 'remove_row', 'add_row'],
  horizontal_bar: ['scale', 'set', 'add', 'swap', 'remove_row', 'add_row'],
  scatter: ['add', 'scale', 'set', 'remove_row', 'add_row', 'swap'],
  other: ['scale', 'add', 'set', 'swap', 'remove_row', 'add_row'],
};

/** How many rows a kind is tried on before the next kind: enough to get past a share that would top 100. */
const ROW_TRIES = 8;

/** Kinds whose default amount a second, modest try can shrink. */
const MODEST_KINDS: ReadonlySet<IntentKind> = new Set(['add', 'move']);

const REJECTED_WARNINGS = new Set<LintCode>(['no_change', 'count_not_integer', 'share_sum']);

/** An intent carrying only the row selectors: what a fallback kind builds from. */
function neutral(intent: Intent, kind: IntentKind): Intent {
  return { ...intent, kind, factor: null, amount: null, amountInPoints: false, sign: 1, everyRow: false, overtake: false, overtakeSeries: false, just: false, match: false, average: false, continues: false };
}

export interface PlanOptions {
  /**
   * Only the proposal's own operation, on the rows its ranks name: no other kind of change
   * stands in for it (the item must do what its proposal says).
   */
  strict?: boolean;
  /** A plan the layout lint accepts must also pass this (e.g. the change must move the factual answer). */
  accept?: (plan: EditPlan) => boolean;
  /**
   * Rows the question reads: a share the change frees or needs is not balanced against them,
   * or the answer would move by the bookkeeping rather than by the proposal's operation.
   */
  questionRows?: readonly string[];
}

/**
 * The proposal's operation where it can be made — on the chosen row of the first column,
 * else on other rows and columns — and, unless `strict`, the chart type's defaults after it.
 * Every candidate is applied and linted, and the first without a lint error (that changes
 * something, and passes `accept`) wins.
 */
export function planEdit(
  facts: TableFacts,
  columns: readonly ColumnFacts[],
  focusRows: (column: ColumnFacts) => string[],
  intent: Intent,
  rng: Rng,
  options: PlanOptions = {},
): EditPlan | null {
  const defaults = DEFAULT_KINDS[facts.chartType];
  const lead = intent.kind ?? shuffled(rng, defaults.slice(0, 3))[0] ?? 'scale';
  const kinds = options.strict ? (intent.kind ? [intent.kind] : []) : unique<IntentKind>([lead, ...defaults, 'scale', 'add', 'set']);
  // A rank the proposal names ("the largest bar") is the row, and "the bar the question asks
  // about" are the question's rows: trying others would not be its operation.
  const ranked = options.strict && intent.selectors.length > 0 && !intent.everyRow && !intent.asked;
  const asked = options.strict && intent.asked && !intent.everyRow;
  const rowsOf = new Map(
    columns.map((column) => {
      const focus = focusRows(column);
      const others = shuffled(rng, column.cells.map((cell) => cell.label).filter((label) => !focus.includes(label)));
      const rows = ranked ? focus.slice(0, 1) : asked ? focus : [...focus, ...others];
      return [column, rows.slice(0, ROW_TRIES)] as const;
    }),
  );
  for (const kind of kinds) {
    const kindIntent = kind === intent.kind ? intent : neutral(intent, kind);
    for (const column of columns) {
      // "15 percentage points" cannot be honoured on a column of revenues: another amount would
      // not be the proposal's operation, so a strict plan leaves that column alone.
      if (options.strict && kind === intent.kind && intent.amountInPoints && !column.percent) continue;
      // A rank two rows share ("the second-lowest" of 6, 6, 18, …) names no one row: the item
      // would not say which the proposal meant.
      if (ranked && kind === intent.kind && intent.selectors.some((selector) => rankTied(facts, rankColumn(facts, column, kind), selector))) continue;
      for (const row of rowsOf.get(column) ?? []) {
        const partner = partnerFor(facts, column, row, kindIntent, rng);
        // A second rank the proposal names ("swap the median and the second-smallest slices") is
        // the partner. Where it is the row itself (of four slices both are the third largest),
        // another partner would not be the proposal's operation.
        const named = partnerSelector(kindIntent);
        if ((ranked || intent.asked) && options.strict && kind === intent.kind && named !== undefined && partner !== selectRow(facts, column, named)) continue;
        const input: PlanInput = { facts, column, row, partner, intent: kindIntent, rng, questionRows: options.questionRows ?? [] };
        // A default amount the checks refuse (past a whole, a jump over time) gets one more, modest
        // try; a scaling of whole numbers made fractional, one more with each value rounded.
        const retry = MODEST_KINDS.has(kind) && kindIntent.amount === null ? { modest: true } : kind === 'scale' && kindIntent.everyRow && column.integer ? { rounded: true } : null;
        for (const variant of retry ? [{}, retry] : [{}]) {
          const draft = BUILDERS[kind]({ ...input, ...variant });
          const plan = draft && accept(facts, input, draft);
          if (plan && (options.accept?.(plan) ?? true)) return plan;
        }
      }
    }
  }
  return null;
}

function accept(facts: TableFacts, input: PlanInput, draft: PlanDraft): EditPlan | null {
  const applied = applyEdit(facts.table, draft.edit);
  if (!applied.ok) return null;
  const findings = lintEdit(facts.chartType, facts.table, applied.table, draft.edit);
  // Beyond errors: an edit must change something, and a count the lint knows stays whole.
  if (findings.some((finding) => finding.severity === 'error' || REJECTED_WARNINGS.has(finding.code))) return null;
  return {
    ...draft,
    column: input.column,
    row: input.row,
    partner: input.partner,
    edited: applied.table,
    changes: applied.changes,
    added_rows: applied.added_rows,
    removed_rows: applied.removed_rows,
  };
}

/** The row next to `row` on the axis (time order on a time axis, else the table's), the later one first. */
function neighbourOf(facts: TableFacts, column: ColumnFacts, row: string, differs: (label: string | null) => label is string): string | null {
  const cells = facts.timeAxis ? [...column.cells].sort((a, b) => (orderKey(a.label) ?? 0) - (orderKey(b.label) ?? 0)) : column.cells;
  const at = cells.findIndex((cell) => cell.label === row);
  if (at === -1) return null;
  return [cells[at + 1]?.label ?? null, cells[at - 1]?.label ?? null].find(differs) ?? null;
}

/**
 * The rank naming a change's second row: the second one a proposal names, or its only one when
 * the first row is the one the question asks about ("swap the asked bar with the largest").
 */
function partnerSelector(intent: Intent): RowSelector | undefined {
  return intent.asked ? intent.selectors[0] : intent.selectors[1];
}

/**
 * The second row a change involves: the proposal's second selector, else (for contrast) the
 * opposite extreme of the row, or now and then any other row, so items vary.
 */
export function partnerFor(facts: TableFacts, column: ColumnFacts, row: string, intent: Intent, rng: Rng): string | null {
  const value = valueOf(column, row);
  const differs = (label: string | null): label is string => label !== null && label !== row && valueOf(column, label) !== value;
  if (intent.neighbour) return neighbourOf(facts, column, row, differs);
  const selector = partnerSelector(intent);
  const named = selector ? selectRow(facts, column, selector) : null;
  if (differs(named)) return named;
  const max = selectRow(facts, column, 'max');
  const min = selectRow(facts, column, 'min');
  const others = column.cells.map((cell) => cell.label).filter(differs);
  if (others.length === 0) return null;
  if (rng() < 0.3) return shuffled(rng, others)[0] ?? null;
  if (differs(max) && (value === null || value < (valueOf(column, max) ?? value))) return max;
  return differs(min) ? min : (others[0] ?? null);
}
