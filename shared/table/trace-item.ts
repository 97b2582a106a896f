import type { ChartType } from '../domain/chart-types';
import { checkProposalConsistency, type Consistency } from '../generation/proposal-consistency';
import { applyEdit, parseEdit, type CellChange, type Edit, type EditError } from './edit';
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
  consistency: null;
  edited: null;
  original: null;
}

/** The program ran: on the edited table, and (with an edit) on the unedited one too. */
export interface RunTrace {
  edit: Extract<EditTrace, { kind: 'none' | 'applied' }>;
  /** The table the program ran on: the edited one, or the chart's own without an edit. */
  table: DataTable;
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

export interface TraceInput {
  table: DataTable;
  chartType: ChartType;
  /**
   * Untrusted: validated here. `undefined` means no edit; anything else (null included) is
   * read as an edit, so a caller decides what its own "no edit" looks like.
   */
  edit?: unknown;
  program: string;
  /** The text of the item's proposal, for the consistency check. */
  proposal?: string | null;
}

/**
 * The one pipeline behind the verifier and the try-it panel: parse the edit, apply it, lint
 * it for the chart type (and against the proposal's operation), run the program on the edited
 * table and on the original. Every stage's result is kept, so the panel can show each and
 * `verifyItem` can derive its verdict. Pure and bounded (the engine limits edits, programs and
 * evaluation work).
 */
export function traceItem({ table, chartType, edit, program, proposal = null }: TraceInput): ItemTrace {
  const blocked = (trace: BlockedTrace['edit'], lint: Finding[]): BlockedTrace => ({
    edit: trace,
    lint,
    table: null,
    consistency: null,
    edited: null,
    original: null,
  });

  const traced = traceEdit(table, edit);
  if (traced.kind === 'none') {
    return { edit: traced, table, lint: null, consistency: null, edited: runProgram(table, program), original: null };
  }
  if (traced.kind === 'unreadable') return blocked(traced, []);
  if (traced.kind === 'failed') return blocked(traced, lintEdit(chartType, table, null, traced.edit, [traced.error]));
  return {
    edit: traced,
    table: traced.table,
    lint: lintEdit(chartType, table, traced.table, traced.edit),
    consistency: proposal ? checkProposalConsistency(proposal, chartType, table, traced.edit) : null,
    edited: runProgram(traced.table, program),
    original: runProgram(table, program),
  };
}

/** The edit stage alone: for a view that shows an item's edited table and runs nothing. */
export function traceEdit(table: DataTable, edit: unknown): EditTrace {
  if (edit === undefined) return { kind: 'none' };
  const parsed = parseEdit(edit);
  if (!parsed.ok) return { kind: 'unreadable', error: parsed.error };
  const applied = applyEdit(table, parsed.edit);
  if (!applied.ok) return { kind: 'failed', edit: parsed.edit, error: applied.error };
  const { ok: _ok, ...outcome } = applied;
  return { kind: 'applied', edit: parsed.edit, ...outcome };
}
