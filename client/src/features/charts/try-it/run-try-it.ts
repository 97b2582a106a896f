import type { ChartType } from '../../../../../shared/domain/chart-types';
import { classifyAnswer, type AnswerType } from '../../../../../shared/table/answers';
import { applyEdit, parseEdit, type CellChange } from '../../../../../shared/table/edit';
import { lintEdit, type Finding } from '../../../../../shared/table/lint';
import type { DataTable } from '../../../../../shared/table/model';
import { runProgram } from '../../../../../shared/table/program';

/** What became of the typed edit. */
export type EditOutcome =
  | { kind: 'none' }
  | { kind: 'invalid'; message: string }
  | {
      kind: 'applied';
      table: DataTable;
      changes: CellChange[];
      added_rows: string[];
      removed_rows: string[];
      removed_series: string[];
    };

/** What became of the typed program. */
export type ProgramOutcome =
  | { kind: 'empty' }
  /** The edit failed, so there is no table to run the program on (the verifier stops there too). */
  | { kind: 'blocked' }
  | { kind: 'answer'; answer: string; answer_type: AnswerType }
  | { kind: 'error'; message: string; position?: number };

export interface TryItResult {
  edit: EditOutcome;
  program: ProgramOutcome;
  /** Null when there is no edit: a factual question assumes nothing, so nothing is linted. */
  lint: Finding[] | null;
}

/**
 * Runs a typed edit and program the way the verifier (`verifyItem`) does — parse the edit,
 * apply it, lint it against the chart type, run the program on the edited table — but keeps
 * what the panel shows that a stored result does not: the edited table and its changes.
 * Pure and bounded (the engine limits edits, programs and evaluation work), so it runs on
 * every pause in typing without a server round trip.
 */
export function runTryIt(table: DataTable, chartType: ChartType, editText: string, programText: string): TryItResult {
  const edit = runEdit(table, chartType, editText);
  const program = edit.outcome.kind === 'invalid' ? blockedOrEmpty(programText) : runTypedProgram(edit.table, programText);
  return { edit: edit.outcome, program, lint: edit.lint };
}

function runEdit(
  table: DataTable,
  chartType: ChartType,
  editText: string,
): { outcome: EditOutcome; table: DataTable; lint: Finding[] | null } {
  if (editText.trim() === '') return { outcome: { kind: 'none' }, table, lint: null };
  let json: unknown;
  try {
    json = JSON.parse(editText);
  } catch (error) {
    // The browser's JSON message says where the text went wrong; the engine's only that it did.
    const detail = error instanceof Error ? `: ${error.message}` : '';
    return { outcome: { kind: 'invalid', message: `the edit is not valid JSON${detail}` }, table, lint: [] };
  }
  const parsed = parseEdit(json);
  if (!parsed.ok) return { outcome: { kind: 'invalid', message: parsed.error.message }, table, lint: [] };
  const applied = applyEdit(table, parsed.edit);
  if (!applied.ok) {
    const lint = lintEdit(chartType, table, null, parsed.edit, [applied.error]);
    return { outcome: { kind: 'invalid', message: applied.error.message }, table, lint };
  }
  const { ok: _ok, ...outcome } = applied;
  return { outcome: { kind: 'applied', ...outcome }, table: applied.table, lint: lintEdit(chartType, table, applied.table, parsed.edit) };
}

function blockedOrEmpty(programText: string): ProgramOutcome {
  return programText.trim() === '' ? { kind: 'empty' } : { kind: 'blocked' };
}

function runTypedProgram(table: DataTable, programText: string): ProgramOutcome {
  if (programText.trim() === '') return { kind: 'empty' };
  const result = runProgram(table, programText);
  if (!result.ok) return { kind: 'error', ...result.error };
  return { kind: 'answer', answer: result.answer, answer_type: classifyAnswer(result.answer) };
}
