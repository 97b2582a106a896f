import type { ChartType } from '../domain/chart-types';
import { checkProposalConsistency, type Consistency } from '../generation/proposal-consistency';
import { applyEdit, parseEdit, type CellChange, type Edit, type EditError } from './edit';
import { editedChart } from './group-edit';
import { lintEdit, type Finding } from './lint';
import type { DataTable } from './model';
import { runProgram, type ProgramResult } from './program';

/** What became of an item's edit: absent, unreadable, readable but not applicable, or applied. */
export type EditTrace =
  | { kind: 'none' }
  | { kind: 'unreadable'; error: EditError }
  | { kind: 'failed'; edit: Edit; error: EditError }
  | {
      kind: 'applied';
      edit: Edit;
      /** The chart the edit changed (1-based position in the group; 1 for a single chart). */
      chart: number;
      /** That chart's edited table. */
      table: DataTable;
      changes: CellChange[];
      added_rows: string[];
      removed_rows: string[];
      removed_series: string[];
    };

/** The edit did not apply, so there is no table to run the program on. */
export interface BlockedTrace {
  edit: Extract<EditTrace, { kind: 'unreadable' | 'failed' }>;
  /** An unreadable edit has nothing to lint; one that failed to apply is linted with its error. */
  lint: Finding[];
  table: null;
  tables: null;
  consistency: null;
  edited: null;
  original: null;
}

/** The program ran: on the edited table, and (with an edit) on the unedited one too. */
export interface RunTrace {
  edit: Extract<EditTrace, { kind: 'none' | 'applied' }>;
  /** The edited chart's table as the program saw it: edited, or the chart's own without an edit. */
  table: DataTable;
  /** Every chart's table as the program saw it, in group order (one for a single chart). */
  tables: readonly DataTable[];
  /** The edit's layout lint for the chart type; null without an edit (a factual question assumes nothing). */
  lint: Finding[] | null;
  /** Whether the edit performs the proposal's operation; null without an edit or a proposal. */
  consistency: Consistency | null;
  /** The program's result on `table`. */
  edited: ProgramResult;
  /** The program's result on the unedited table; null without an edit (it would be `edited`). */
  original: ProgramResult | null;
}

export type ItemTrace = BlockedTrace | RunTrace;

/** One chart of a group, in the group's order: what a multi-chart item is traced over. */
export interface GroupChart {
  table: DataTable;
  chartType: ChartType;
  title?: string;
}

/** One chart (`table`, `chartType`), or a group's charts in position order (`group`). */
export type TraceSubject =
  | { table: DataTable; chartType: ChartType; group?: undefined }
  | { group: readonly GroupChart[]; table?: undefined; chartType?: undefined };

/** The subject as a list of charts, one for a single chart. */
export function subjectCharts(subject: TraceSubject): readonly GroupChart[] {
  return subject.group ?? [{ table: subject.table, chartType: subject.chartType }];
}

export type TraceInput = TraceSubject & {
  /**
   * Untrusted: validated here. `undefined` means no edit; anything else (null included) is
   * read as an edit, so a caller decides what its own "no edit" looks like.
   */
  edit?: unknown;
  program: string;
  /** The text of the item's proposal, for the consistency check. */
  proposal?: string | null;
};

/**
 * The one pipeline behind the verifier and the try-it panel: parse the edit, apply it, lint
 * it for the chart type (and against the proposal's operation), run the program on the edited
 * table and on the original. Every stage's result is kept, so the panel can show each and
 * `verifyItem` can derive its verdict. Pure and bounded (the engine limits edits, programs and
 * evaluation work).
 */
export function traceItem(input: TraceInput): ItemTrace {
  const { edit, program, proposal = null } = input;
  const charts = subjectCharts(input);
  const originals = charts.map((chart) => chart.table);
  const blocked = (trace: BlockedTrace['edit'], lint: Finding[]): BlockedTrace => ({
    edit: trace,
    lint,
    table: null,
    tables: null,
    consistency: null,
    edited: null,
    original: null,
  });

  const traced = traceEdit(originals, edit);
  if (traced.kind === 'none') {
    const [first] = originals as [DataTable];
    return { edit: traced, table: first, tables: originals, lint: null, consistency: null, edited: runProgram(originals, program), original: null };
  }
  if (traced.kind === 'unreadable') return blocked(traced, []);
  // An edit that failed before naming a usable chart is linted against chart 1.
  const target = charts[(traced.kind === 'applied' ? traced.chart : 1) - 1] ?? (charts[0] as GroupChart);
  if (traced.kind === 'failed') return blocked(traced, lintEdit(target.chartType, target.table, null, traced.edit, [traced.error]));
  const tables = originals.map((table, index) => (index === traced.chart - 1 ? traced.table : table));
  return {
    edit: traced,
    table: traced.table,
    tables,
    lint: lintEdit(target.chartType, target.table, traced.table, traced.edit),
    consistency: proposal ? checkProposalConsistency(proposal, target.chartType, target.table, traced.edit) : null,
    edited: runProgram(tables, program),
    original: runProgram(originals, program),
  };
}

/**
 * The edit stage alone: for a view that shows an item's edited table and runs nothing. Over a
 * group (`tables` in position order) the edit names the chart it changes.
 */
export function traceEdit(tables: DataTable | readonly DataTable[], edit: unknown): EditTrace {
  if (edit === undefined) return { kind: 'none' };
  const group: readonly DataTable[] = Array.isArray(tables) ? tables : [tables as DataTable];
  const parsed = parseEdit(edit);
  if (!parsed.ok) return { kind: 'unreadable', error: parsed.error };
  const target = editedChart(parsed.edit, group.length);
  if (!target.ok) return { kind: 'failed', edit: parsed.edit, error: target.error };
  const applied = applyEdit(group[target.chart - 1] as DataTable, parsed.edit);
  if (!applied.ok) return { kind: 'failed', edit: parsed.edit, error: applied.error };
  const { ok: _ok, ...outcome } = applied;
  return { kind: 'applied', edit: parsed.edit, chart: target.chart, ...outcome };
}
