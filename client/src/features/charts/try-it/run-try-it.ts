import type { ChartType } from '@shared/domain/chart-types';
import { classifyAnswer, type AnswerType } from '@shared/table/answers';
import type { Finding } from '@shared/table/lint';
import type { DataTable } from '@shared/table/model';
import type { ProgramResult } from '@shared/table/program';
import { traceItem } from '@shared/table/trace-item';
import { editOutcomeOf, type EditOutcome } from '../../../views/edit-outcome';

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
 * Runs a typed edit and program through the verifier's own pipeline (`traceItem`, which
 * `verifyItem` reads its verdict from) and keeps what the panel shows that a stored result
 * does not: the edited table and its changes. Pure and bounded, so it runs on every pause in
 * typing without a server round trip.
 */
export function runTryIt(table: DataTable, chartType: ChartType, editText: string, programText: string): TryItResult {
  const edit = readEditText(editText);
  if (!edit.ok) return { edit: { kind: 'invalid', message: edit.message }, program: blockedOrEmpty(programText), lint: [] };
  const trace = traceItem({ table, chartType, edit: edit.value, program: programText });
  const program = trace.edited === null ? blockedOrEmpty(programText) : programOutcome(trace.edited, programText);
  return { edit: editOutcomeOf(trace.edit), program, lint: trace.lint };
}

/** Empty text is no edit (`undefined` to the trace); anything else must be JSON. */
function readEditText(editText: string): { ok: true; value: unknown } | { ok: false; message: string } {
  if (editText.trim() === '') return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(editText) };
  } catch (error) {
    // The browser's JSON message says where the text went wrong; the engine's only that it did.
    const detail = error instanceof Error ? `: ${error.message}` : '';
    return { ok: false, message: `the edit is not valid JSON${detail}` };
  }
}

function blockedOrEmpty(programText: string): ProgramOutcome {
  return programText.trim() === '' ? { kind: 'empty' } : { kind: 'blocked' };
}

function programOutcome(result: ProgramResult, programText: string): ProgramOutcome {
  if (programText.trim() === '') return { kind: 'empty' };
  if (!result.ok) return { kind: 'error', ...result.error };
  return { kind: 'answer', answer: result.answer, answer_type: classifyAnswer(result.answer) };
}
